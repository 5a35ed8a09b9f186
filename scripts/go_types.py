"""Reads the Go type declarations of Kubernetes API packages (k8s.io/api, k8s.io/apimachinery,
k8s.io/apiextensions-apiserver, k8s.io/kube-aggregator) from the bare git mirrors `fetch` brings
to /work/.mirror, for the generators beside this file (gen-builtin-schema.py, gen-go-types.py).

The API packages are gofmt'd and declare one type per `type X ...` line, so a line parser is
enough: struct fields with their tags and the `// +marker` comments above them, and named
non-struct types (`type Protocol string`, `type ResourceList map[ResourceName]resource.Quantity`).

A package is named by a short id: `core.v1`, `apps.v1`, `meta.v1`, `resource`, `intstr`,
`apiextensions.v1`, `apiregistration.v1`; types by `<package id>.<Name>`.
"""
import json
import re
import subprocess

MIRROR = '/work/.mirror'

# Where each module's packages live: (mirror, tag, import path prefix, directory inside the repo).
MODULES = [
    ('kubernetes+api', 'v0.36.3', 'k8s.io/api/', ''),
    ('kubernetes+apimachinery', 'v0.36.3', 'k8s.io/apimachinery/', ''),
    ('kubernetes+apiextensions-apiserver', 'v0.36.3', 'k8s.io/apiextensions-apiserver/', ''),
    ('kubernetes+kube-aggregator', 'v0.36.2', 'k8s.io/kube-aggregator/', ''),
]

# The served stable group versions both generators read (apidiscovery and admission are not resources).
SERVED_PACKAGES = [
    'admissionregistration.v1', 'apps.v1', 'authentication.v1', 'authorization.v1', 'autoscaling.v1',
    'autoscaling.v2', 'batch.v1', 'certificates.v1', 'coordination.v1', 'core.v1', 'discovery.v1',
    'events.v1', 'flowcontrol.v1', 'networking.v1', 'node.v1', 'policy.v1', 'rbac.v1', 'resource.v1',
    'scheduling.v1', 'storage.v1', 'apiextensions.v1', 'apiregistration.v1',
]

# apimachinery packages the API types use, by short id.
APIMACHINERY_IDS = {
    'k8s.io/apimachinery/pkg/apis/meta/v1': 'meta.v1',
    'k8s.io/apimachinery/pkg/api/resource': 'resource',
    'k8s.io/apimachinery/pkg/util/intstr': 'intstr',
    'k8s.io/apimachinery/pkg/runtime': 'runtime',
    'k8s.io/apimachinery/pkg/types': 'types',
}


def package_id(import_path):
    """The short id of an import path (None for packages no API type reaches into)."""
    if import_path in APIMACHINERY_IDS:
        return APIMACHINERY_IDS[import_path]
    if import_path == 'time':
        return 'time'
    m = re.match(r'^k8s\.io/api/([a-z0-9]+)/(v[a-z0-9]+)$', import_path)
    if m:
        return f'{m.group(1)}.{m.group(2)}'
    m = re.match(r'^k8s\.io/(?:apiextensions-apiserver|kube-aggregator)/pkg/apis/([a-z0-9]+)/(v[a-z0-9]+)$', import_path)
    if m:
        return f'{m.group(1)}.{m.group(2)}'
    return None


def import_path_of(pkg):
    """The import path of a package id (the inverse of package_id)."""
    for path, pid in APIMACHINERY_IDS.items():
        if pid == pkg:
            return path
    group, version = pkg.split('.')
    if group == 'apiextensions':
        return f'k8s.io/apiextensions-apiserver/pkg/apis/{group}/{version}'
    if group == 'apiregistration':
        return f'k8s.io/kube-aggregator/pkg/apis/{group}/{version}'
    return f'k8s.io/api/{group}/{version}'


def _module_of(import_path):
    for repo, tag, prefix, _ in MODULES:
        if import_path.startswith(prefix):
            return repo, tag, import_path[len(prefix):]
    raise SystemExit(f'no module mirror for {import_path}')


def git(repo, *args):
    return subprocess.run(['git', '--git-dir', f'{MIRROR}/{repo}/repo', *args], check=True, capture_output=True, text=True).stdout


def source_version(pkg):
    """`k8s.io/api v0.36.3`: the module and tag a package is read from."""
    repo, tag, _ = _module_of(import_path_of(pkg))
    return f"{repo.replace('kubernetes+', 'k8s.io/')} {tag}"


def package_files(pkg):
    """The hand-written .go files of a package (no tests, no generated code)."""
    repo, tag, directory = _module_of(import_path_of(pkg))
    names = git(repo, 'ls-tree', '--name-only', f'{tag}:{directory}').split()
    return [(repo, tag, f'{directory}/{n}') for n in names
            if n.endswith('.go') and not n.endswith('_test.go') and not n.startswith('zz_generated') and 'generated' not in n]


def show(repo, tag, path):
    return git(repo, 'show', f'{tag}:{path}')


def split_map(go_type):
    """The key and value type expressions of `map[K]V` (K may itself hold brackets)."""
    depth = 0
    for i, c in enumerate(go_type):
        if c == '[':
            depth += 1
        elif c == ']':
            depth -= 1
            if depth == 0:
                return go_type[4:i], go_type[i + 1:]
    raise ValueError(f'unbalanced map type {go_type}')


def group_name(pkg):
    """`const GroupName = "apps"` of the package's register.go."""
    repo, tag, directory = _module_of(import_path_of(pkg))
    m = re.search(r'GroupName\s*=\s*"([^"]*)"', show(repo, tag, f'{directory}/register.go'))
    if not m:
        raise SystemExit(f'no GroupName in {pkg}')
    return m.group(1)



def kind_structs(types, packages):
    """Loads each package and yields (group, version, struct id, struct) for its kinds: the structs
    whose first field embeds TypeMeta inline, in declaration order. The structs are listed before
    the caller's body runs, so it may load more packages."""
    for pkg in packages:
        types.load(pkg)
        group = group_name(pkg)
        version = pkg.split('.')[1]
        for full, st in list(types.structs.items()):
            if st['pkg'] != pkg or not st['fields']:
                continue
            first = st['fields'][0]
            if first.embedded and first.go_type.endswith('.TypeMeta') and 'inline' in first.options:
                yield group, version, full, st

class Field:
    """One struct field. `name` is the Go field name ('' for an embedded field), `json` the tag's
    name part ('' when absent or empty), `options` the tag's options (omitempty, inline, ...)."""

    def __init__(self, name, go_type, comments, tags, has_tag):
        self.name = name
        self.go_type = go_type
        self.comments = comments
        self.tags = tags
        self.has_tag = has_tag
        parts = tags.get('json', '').split(',')
        self.json = parts[0]
        self.options = parts[1:]

    @property
    def embedded(self):
        return self.name == ''


class GoTypes:
    """The parsed declarations of every package loaded so far; packages load on first use."""

    def __init__(self):
        self.structs = {}   # type id -> {'fields': [Field], 'markers': [comment], 'pkg': id, 'imports': alias -> id}
        self.named = {}     # type id -> (underlying go type, pkg, imports)
        self.named_comments = {}  # type id -> the comment lines above its declaration
        self.consts = {}    # type id -> [(const name, string value, comment lines)] of typed string consts
        self.loaded = set()

    def load(self, pkg):
        if pkg in self.loaded or pkg == 'time':
            return
        self.loaded.add(pkg)
        for repo, tag, path in package_files(pkg):
            self.parse_file(pkg, show(repo, tag, path))

    def parse_file(self, pkg, text):
        alias_map = {}
        block = re.search(r'^import \(\n(.*?)^\)', text, re.M | re.S)
        lines_ = block.group(1).split('\n') if block else re.findall(r'^import (.*)$', text, re.M)
        for line in lines_:
            m = re.match(r'^\s*(?:(\w+)\s+)?"([^"]+)"\s*$', line)
            if m:
                target = package_id(m.group(2))
                if target:
                    alias_map[m.group(1) or m.group(2).rsplit('/', 1)[-1]] = target
        lines = text.split('\n')
        comments = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith('//'):
                comments.append(line)
                i += 1
                continue
            m = re.match(r'^type (\w+) struct\s*\{\s*\}\s*$', line)
            if m:
                self.structs[f'{pkg}.{m.group(1)}'] = {'fields': [], 'markers': comments, 'pkg': pkg, 'imports': alias_map}
                comments = []
                i += 1
                continue
            m = re.match(r'^type (\w+) struct \{\s*$', line)
            if m:
                fields = []
                field_comments = []
                i += 1
                while i < len(lines) and not lines[i].startswith('}'):
                    fl = lines[i].strip()
                    i += 1
                    if fl.startswith('/*'):
                        while '*/' not in lines[i - 1]:
                            i += 1
                        continue
                    if fl.startswith('//'):
                        field_comments.append(fl)
                        continue
                    if not fl:
                        continue
                    tag_m = re.search(r'`([^`]*)`', fl)
                    head = (fl[:tag_m.start()] if tag_m else fl.split('//')[0]).split()
                    tags = dict(re.findall(r'(\w+):"([^"]*)"', tag_m.group(1))) if tag_m else {}
                    if len(head) == 1:
                        fields.append(Field('', head[0], field_comments, tags, tag_m is not None))
                    elif len(head) == 2:
                        fields.append(Field(head[0], head[1], field_comments, tags, tag_m is not None))
                    field_comments = []
                self.structs[f'{pkg}.{m.group(1)}'] = {'fields': fields, 'markers': comments, 'pkg': pkg, 'imports': alias_map}
                comments = []
                i += 1
                continue
            m = re.match(r'^type (\w+) (?:= )?([^\s{]+)\s*(//.*)?$', line)
            if m:
                self.named[f'{pkg}.{m.group(1)}'] = (m.group(2), pkg, alias_map)
                self.named_comments[f'{pkg}.{m.group(1)}'] = comments
            if line.startswith('const '):
                i = self.parse_consts(pkg, lines, i, comments)
            comments = []
            i += 1

    def parse_consts(self, pkg, lines, i, comments):
        """Typed string constants (`Name Type = "value"`) of a `const` line or block, each with the
        comment above it (its own in a block, the declaration's on a single line). Returns the index
        of the last line read."""
        const_re = r'^\s*(?:const\s+)?(\w+)\s+(\w+)\s*=\s*"([^"\\]*)"'
        if lines[i].rstrip() != 'const (':
            m = re.match(const_re, lines[i])
            if m:
                self.consts.setdefault(f'{pkg}.{m.group(2)}', []).append((m.group(1), m.group(3), comments))
            return i
        own = []
        i += 1
        while i < len(lines) and lines[i] != ')':
            line = lines[i].strip()
            if line.startswith('//'):
                own.append(line)
            else:
                m = re.match(const_re, line)
                if m:
                    self.consts.setdefault(f'{pkg}.{m.group(2)}', []).append((m.group(1), m.group(3), own))
                own = []
            i += 1
        return i

    def qualify(self, go_type, pkg, alias_map):
        """`metav1.Time` in package `apps.v1` -> `meta.v1.Time`; `PodSpec` -> `core.v1.PodSpec`."""
        if '.' in go_type:
            alias, name = go_type.split('.', 1)
            target = alias_map.get(alias)
            if target is None:
                raise SystemExit(f'unknown package alias {alias} in {pkg} ({go_type})')
            self.load(target)
            return f'{target}.{name}'
        self.load(pkg)
        return f'{pkg}.{go_type}'


def markers(comments, key):
    """The values of `// +key=value` comment markers."""
    out = []
    for c in comments:
        m = re.match(r'^//\s*\+' + re.escape(key) + r'=(.*)$', c.strip())
        if m:
            out.append(m.group(1).strip())
    return out


def json_table(table, ensure_ascii=True):
    """TypeScript source for `table`: JSON.parse of a template literal holding it, one entry a line
    (far cheaper to load than object literals), for the generators' outputs."""
    lines = [f'  {json.dumps(k)}: {json.dumps(v, separators=(",", ":"), ensure_ascii=ensure_ascii)}' for k, v in table.items()]
    text = '{\n' + ',\n'.join(lines) + '\n}'
    text = text.replace('\\', '\\\\').replace('`', '\\`').replace('${', '\\${')
    return 'JSON.parse(`' + text + '`)'
