// serviceaccounts/token: TokenRequest (pkg/registry/core/serviceaccount/storage/token.go
// TokenREST.Create, pkg/serviceaccount/claims.go): a JWT for the service account, signed RS256 with
// a key of the cluster's own (its `kid` is the base64url SHA-256 of the public key's DER, as
// keyIDFromPublicKey computes it), with the claims kube-apiserver issues: iss, sub
// `system:serviceaccount:<ns>:<name>`, aud, iat/nbf/exp, jti and `kubernetes.io` (namespace,
// serviceaccount and the bound object).
import { createHash, createSign, createVerify, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { KubeObject } from '../../apis/object.ts';
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { badRequest, conflict, invalid, notFound } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { WriteOptions } from '../../apis/options.ts';
import type { GenericRegistry } from '../generic-registry.ts';
import { createSubresourceTypeOf } from './create-subresource-type.ts';

/** --service-account-issuer of a kind or kubeadm cluster; --api-audiences defaults to it. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const TOKEN_REQUEST = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
/** The kind serviceaccounts/token is registered with (TokenREST.GroupVersionKind). */
const TOKEN_REQUEST_KIND = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
/**
 * serviceaccount.WarnOnlyBoundTokenExpirationSeconds (pkg/serviceaccount/claims.go): the expiry the
 * ServiceAccount admission plugin gives a pod's projected token, which TokenREST extends.
 */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** serviceaccount.ExpirationExtensionSeconds: a year, how long an extended token lives by default. */
const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

interface Signer {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

// One signing key per cluster (keyed by its serviceaccounts registry), made on the first request.
const signers = new WeakMap<GenericRegistry, Signer>();

function signerFor(registry: GenericRegistry): Signer {
  let signer = signers.get(registry);
  if (!signer) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
    signers.set(registry, (signer = { privateKey, publicKey, kid }));
  }
  return signer;
}

const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** go-jose signs the claims as a Go map: keys sorted. */
const sortedKeys = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

function signJwt(signer: Signer, claims: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'RS256', kid: signer.kid })}.${b64url(sortedKeys(claims))}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(signer.privateKey).toString('base64url')}`;
}

export interface TokenRequestBody {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { audiences?: string[] | null; expirationSeconds?: number; boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null };
}

export interface TokenRequestContext {
  serviceAccounts: GenericRegistry;
  namespace: string;
  name: string;
  now: Date;
  /** The request's CreateOptions (dry run, user), as admission sees them. */
  options: WriteOptions;
  /** The registry of a served resource (the bound object's `pods`, `secrets` or `nodes`), undefined when not served. */
  registryOf(group: string, version: string, resource: string): GenericRegistry | undefined;
}

/** The claims of a service account token kubefake issues (pkg/serviceaccount/claims.go privateClaims and jwt.Claims). */
export interface ServiceAccountTokenClaims {
  iss?: string;
  sub?: string;
  aud?: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
  'kubernetes.io'?: {
    namespace?: string;
    serviceaccount?: { name?: string; uid?: string };
    pod?: { name?: string; uid?: string };
    secret?: { name?: string; uid?: string };
    node?: { name?: string; uid?: string };
    warnafter?: number;
  };
}

/**
 * The claims of a token this cluster signed (the first half of jwtTokenAuthenticator.AuthenticateToken,
 * pkg/serviceaccount/jwt.go): undefined when it is not a JWT with this cluster's issuer (the
 * authenticator has no opinion); `invalid signature, no keys found` when its key id is not this
 * cluster's key's, go-jose's error when the signature does not verify;
 * otherwise the claims, not yet validated (audiences, times, the objects named: auth's job).
 */
export function serviceAccountTokenClaims(serviceAccounts: GenericRegistry, token: string): { claims: ServiceAccountTokenClaims } | { error: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  let claims: ServiceAccountTokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ServiceAccountTokenClaims;
  } catch {
    return undefined;
  }
  // hasCorrectIssuer reads the unverified payload's iss.
  if (claims === null || typeof claims !== 'object' || claims.iss !== SERVICE_ACCOUNT_ISSUER) return undefined;
  // jwt.ParseSigned: a header that does not parse is no token of this authenticator's.
  let kid: unknown;
  try {
    kid = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid?: unknown } | null)?.kid;
  } catch {
    return undefined;
  }
  const signer = signers.get(serviceAccounts);
  // GetPublicKeys(kid): the keys with the token's key id (all of them when it names none).
  if (typeof kid === 'string' && kid !== '' && kid !== signer?.kid) return { error: 'invalid signature, no keys found' };
  let verified = false;
  try {
    verified = !!signer && createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(signer.publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    verified = false;
  }
  // tok.Claims(key, ...) fails with go-jose's ErrCryptoFailure (the text of the go-jose.v2 fork
  // kube-apiserver links; not checked against a live v1.36 server).
  return verified ? { claims } : { error: 'go-jose/go-jose: error in cryptographic primitive' };
}

/**
 * TokenREST.Create: the TokenRequest with its status (token, expirationTimestamp). create.go runs
 * the mutating admission phase on the TokenRequest as decoded (v1 defaulting done); Create then
 * checks the body's name and namespace, looks the service account up, fills in what it defaults
 * and runs ValidateTokenRequest, then the validating phase, before it resolves the bound object
 * (pkg/registry/core/serviceaccount/storage/token.go).
 */
export async function requestToken(body: TokenRequestBody, r: TokenRequestContext): Promise<Record<string, unknown>> {
  body.apiVersion = 'authentication.k8s.io/v1';
  body.kind = 'TokenRequest';
  // v1 defaulting: expirationSeconds 3600 (SetDefaults_TokenRequestSpec).
  const spec = (body.spec ??= {});
  spec.expirationSeconds ??= 3600;
  const type = createSubresourceTypeOf(r.serviceAccounts.type, 'token', TOKEN_REQUEST_KIND);
  let sa: KubeObject | undefined;
  await r.serviceAccounts.admitSubresourceCreate(type, TOKEN_REQUEST_KIND, r.namespace, r.name, body as KubeObject, r.options, async () => {
    const metadata = (body.metadata ??= {});
    // Name and namespace in the body must match the URL where given.
    if (metadata.name && metadata.name !== r.name) throw invalid(TOKEN_REQUEST, r.name, [fieldError.invalid('metadata.name', metadata.name, 'must match the service account name if specified')]);
    if (metadata.namespace && metadata.namespace !== r.namespace) {
      throw invalid(TOKEN_REQUEST, r.name, [fieldError.invalid('metadata.namespace', metadata.namespace, 'must match the service account namespace if specified')]);
    }
    sa = await r.serviceAccounts.get(r.namespace, r.name);
    if (!spec.audiences?.length) spec.audiences = [SERVICE_ACCOUNT_ISSUER];
    metadata.name ||= r.name;
    metadata.namespace ||= r.namespace;
    (metadata as Record<string, unknown>).creationTimestamp = formatTimestamp(r.now);
    delete (body as Record<string, unknown>).status;
    const expirationSeconds = spec.expirationSeconds!;
    const errors: FieldError[] = [];
    if (expirationSeconds < 600) errors.push(fieldError.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (expirationSeconds > 2 ** 32) errors.push(fieldError.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    if (errors.length > 0) throw invalid(TOKEN_REQUEST, '', errors);
  });
  const expirationSeconds = spec.expirationSeconds!;
  const audiences = spec.audiences!;
  const bound = await boundClaims(spec.boundObjectRef ?? undefined, r);
  const iat = Math.floor(r.now.getTime() / 1000);
  const kubernetes: Record<string, unknown> = { namespace: r.namespace, serviceaccount: { name: r.name, uid: sa!.metadata?.uid }, ...bound?.claims };
  // --service-account-extend-token-expiration (on by default): a pod's projected token for the API
  // server (the admission plugin's 3607s) expires a year on, and only warns (warnafter) after its
  // requested expiry; the status still answers the requested expiry (token.go).
  let exp = iat + expirationSeconds;
  if (bound?.pod && expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && audiences.every((a) => a === SERVICE_ACCOUNT_ISSUER)) {
    kubernetes.warnafter = exp;
    exp = iat + EXPIRATION_EXTENSION_SECONDS;
  }
  const token = signJwt(signerFor(r.serviceAccounts), {
    aud: audiences,
    exp,
    iat,
    iss: SERVICE_ACCOUNT_ISSUER,
    jti: randomUUID(),
    'kubernetes.io': sortedKeys(kubernetes),
    nbf: iat,
    sub: `system:serviceaccount:${r.namespace}:${r.name}`,
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: r.name, namespace: r.namespace, creationTimestamp: formatTimestamp(r.now) },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token, expirationTimestamp: formatTimestamp(new Date(r.now.getTime() + expirationSeconds * 1000)) },
  };
}

const BOUND_RESOURCES = { Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;

/** The object a token is bound to, in the service account's namespace unless cluster-scoped (404 when missing). */
async function boundObject(kind: keyof typeof BOUND_RESOURCES, name: string, r: TokenRequestContext): Promise<KubeObject> {
  const registry = r.registryOf('', 'v1', BOUND_RESOURCES[kind]);
  if (!registry) throw notFound({ group: '', resource: kind.toLowerCase() + 's' }, name);
  return registry.get(registry.type.namespaced ? r.namespace : undefined, name);
}

type ObjectRef = { name: string; uid?: string };

/**
 * The claims of the object a token is bound to (`pod`, `secret` or `node`). A pod on a node names
 * that node too (ServiceAccountTokenPodNodeInfo): with its uid, or by name alone when no such Node
 * is stored.
 */
async function boundClaims(ref: NonNullable<TokenRequestBody['spec']>['boundObjectRef'] | undefined, r: TokenRequestContext): Promise<{ claims: Record<string, ObjectRef>; pod: boolean } | undefined> {
  if (!ref) return undefined;
  const [group, version] = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/') : ['', ref.apiVersion ?? ''];
  const kind = ref.kind ?? '';
  if (group !== '' || (kind !== 'Pod' && kind !== 'Secret' && kind !== 'Node')) {
    // schema.GroupVersionKind.String()
    throw badRequest(`cannot bind token to object of type ${group ? `${group}/${version}` : version}, Kind=${kind}`);
  }
  const obj = await boundObject(kind, ref.name ?? '', r);
  const claims: Record<string, ObjectRef> = {};
  if (kind === 'Pod') {
    const podSpec = obj.spec as { serviceAccountName?: string; nodeName?: string } | undefined;
    if ((podSpec?.serviceAccountName ?? '') !== r.name) {
      throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(r.name)} to pod running with different serviceaccount name.`);
    }
    const nodeName = podSpec?.nodeName;
    if (nodeName) {
      const nodeUid = r.registryOf('', 'v1', 'nodes')?.peek(undefined, nodeName)?.metadata.uid;
      claims.node = nodeUid ? { name: nodeName, uid: nodeUid } : { name: nodeName };
    }
  }
  const uid = obj.metadata?.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict({ group: '', resource: kind }, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  claims[kind.toLowerCase()] = { name: ref.name ?? '', uid };
  return { claims, pod: kind === 'Pod' };
}
