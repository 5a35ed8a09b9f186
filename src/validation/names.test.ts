import { describe, expect, it } from 'vitest';
import { fieldError, fieldErrorMessage } from '../errors/field-error.ts';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isPathSegmentName,
  isPathSegmentPrefix,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
  nameIsDNSSubdomain,
  nameValidatorFor,
  regexError,
  validateNamespaceName,
  validatePathSegmentName,
} from './names.ts';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('regexError', () => {
  it('joins examples with the double space clients see', () => {
    expect(regexError('msg', 're')).toBe("msg (regex used for validation is 're')");
    expect(regexError('msg', 're', 'a')).toBe("msg (e.g. 'a', regex used for validation is 're')");
    expect(regexError('msg', 're', 'a', 'b', 'c')).toBe("msg (e.g. 'a',  or 'b',  or 'c', regex used for validation is 're')");
  });
});

describe('isDNS1123Subdomain', () => {
  it('accepts subdomains up to 253 bytes', () => {
    for (const v of ['a', 'example.com', '1.2.3', 'a-b.c-d', 'a'.repeat(253)]) expect(isDNS1123Subdomain(v)).toEqual([]);
  });
  it('renders the §4.2 vector for metadata.name', () => {
    const [msg] = isDNS1123Subdomain('Bad_Name');
    expect(fieldErrorMessage(fieldError.invalid('metadata.name', 'Bad_Name', msg!))).toBe(
      `metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`,
    );
  });
  it('rejects empty, leading/trailing punctuation and empty labels', () => {
    for (const v of ['', '-a', 'a-', '.a', 'a.', 'a..b', 'A', 'a_b', 'é']) expect(isDNS1123Subdomain(v)).toEqual([SUBDOMAIN_MSG]);
  });
  it('says "characters" for the length (util/validation, not content)', () => {
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('-'.repeat(254))).toEqual(['must be no more than 253 characters', SUBDOMAIN_MSG]);
  });
  it('counts UTF-8 bytes for the length', () => {
    expect(isDNS1123Subdomain('é'.repeat(127))).toEqual(['must be no more than 253 characters', SUBDOMAIN_MSG]);
  });
});

describe('isDNS1123Label', () => {
  it('accepts labels up to 63', () => {
    for (const v of ['a', '0', 'my-name', '123-abc', 'a'.repeat(63)]) expect(isDNS1123Label(v)).toEqual([]);
  });
  it('uses the label regex text with the double space', () => {
    expect(isDNS1123Label('Foo')).toEqual([LABEL_MSG]);
    expect(isDNS1123Label('')).toEqual([LABEL_MSG]);
    expect(isDNS1123Label('a-')).toEqual([LABEL_MSG]);
  });
  it('reports dots on an otherwise valid subdomain', () => {
    expect(isDNS1123Label('foo.bar')).toEqual(['must not contain dots']);
  });
  it('reports the length first', () => {
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isDNS1123Label('a.'.repeat(40) + 'a')).toEqual(['must be no more than 63 characters', 'must not contain dots']);
  });
});

describe('isDNS1035Label', () => {
  it('accepts labels starting with a letter', () => {
    for (const v of ['a', 'my-name', 'abc-123', 'a'.repeat(63)]) expect(isDNS1035Label(v)).toEqual([]);
  });
  it('rejects a leading digit and other violations', () => {
    for (const v of ['1abc', '', 'a.b', 'A', 'a-']) expect(isDNS1035Label(v)).toEqual([DNS1035_MSG]);
    expect(isDNS1035Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('isQualifiedName', () => {
  it('accepts keys with and without a prefix', () => {
    for (const v of ['simple', 'Uppercase_Is_OK_123', 'example.com/Uppercase_Is_OK_123', '1.2.3.4/5678', 'a'.repeat(63), 'a'.repeat(253) + '/' + 'b'.repeat(63)]) {
      expect(isQualifiedName(v)).toEqual([]);
    }
  });
  it('renders the §4.2 label key vector', () => {
    const [msg] = isQualifiedName('bad key!');
    expect(fieldErrorMessage(fieldError.invalid('metadata.labels', 'bad key!', msg!))).toBe(`metadata.labels: Invalid value: "bad key!": ${NAME_PART_MSG}`);
  });
  it('reports empty parts', () => {
    expect(isQualifiedName('/simple')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', NAME_PART_MSG]);
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', NAME_PART_MSG]);
  });
  it('reports name part length in bytes', () => {
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
  });
  it('prefixes subdomain errors with "prefix part" and says "bytes"', () => {
    expect(isQualifiedName('Example.com/abc')).toEqual(['prefix part ' + SUBDOMAIN_MSG]);
    expect(isQualifiedName('a'.repeat(254) + '/abc')).toEqual(['prefix part must be no more than 253 bytes']);
  });
  it('rejects more than one slash with the whole-key text', () => {
    expect(isQualifiedName('only/one/slash')).toEqual([
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });
});

describe('isValidLabelValue', () => {
  it('accepts empty and well-formed values', () => {
    for (const v of ['', 'simple', '1234', 'a_b.c-d', 'a'.repeat(63)]) expect(isValidLabelValue(v)).toEqual([]);
  });
  it('rejects the upstream error cases', () => {
    for (const v of ['nospecialchars%^=@', 'Tama-nui-te-rā.is.Māori.sun', '-starts-with-dash', 'ends.with.dot.']) {
      expect(isValidLabelValue(v)).toEqual([LABEL_VALUE_MSG]);
    }
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 bytes']);
    expect(isValidLabelValue('-'.repeat(64))).toEqual(['must be no more than 63 bytes', LABEL_VALUE_MSG]);
  });
});

describe('path segment names', () => {
  it('rejects . and .. as whole names only', () => {
    expect(isPathSegmentName('.')).toEqual(["may not be '.'"]);
    expect(isPathSegmentName('..')).toEqual(["may not be '..'"]);
    expect(isPathSegmentName('...')).toEqual([]);
    expect(isPathSegmentName('')).toEqual([]);
    expect(isPathSegmentPrefix('.')).toEqual([]);
  });
  it('rejects / and % in that order', () => {
    expect(isPathSegmentName('a%b/c')).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(validatePathSegmentName('a%', true)).toEqual(["may not contain '%'"]);
    expect(validatePathSegmentName('..', true)).toEqual([]);
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('Any_Thing.OK', false)).toEqual([]);
  });
});

describe('generateName masking', () => {
  it('matches upstream TestMaskTrailingDash (drops two bytes)', () => {
    expect(maskTrailingDash('')).toBe('');
    expect(maskTrailingDash('-')).toBe('-');
    expect(maskTrailingDash('-foo')).toBe('-foo');
    expect(maskTrailingDash('-foo-')).toBe('-foa');
    expect(maskTrailingDash('b-')).toBe('a');
    expect(maskTrailingDash('ab')).toBe('ab');
  });
  it('lets a prefix end in a dash, and even hides the character before it', () => {
    expect(nameIsDNSSubdomain('foo-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('foo-', false)).toEqual([SUBDOMAIN_MSG]);
    expect(nameIsDNSSubdomain('ab.-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('-', true)).toEqual([SUBDOMAIN_MSG]);
  });
  it('keeps a multi-byte character cut in half invalid, as Go does', () => {
    expect(nameIsDNSSubdomain('é-', true)).toEqual([SUBDOMAIN_MSG]);
  });
  it('masks for namespaces too', () => {
    expect(validateNamespaceName('ns-', true)).toEqual([]);
    expect(validateNamespaceName('foo.bar', false)).toEqual(['must not contain dots']);
  });
});

describe('nameValidatorFor', () => {
  it('maps each rule to its ValidateNameFunc', () => {
    expect(nameValidatorFor('dns1123-subdomain')('a.b', false)).toEqual([]);
    expect(nameValidatorFor('dns1123-label')('a.b', false)).toEqual(['must not contain dots']);
    expect(nameValidatorFor('dns1035-label')('1a', false)).toEqual([DNS1035_MSG]);
    expect(nameValidatorFor('dns1035-label')('abc-', true)).toEqual([]);
    expect(nameValidatorFor('path-segment')('UPPER_case', false)).toEqual([]);
    expect(nameValidatorFor('path-segment')('a/b', false)).toEqual(["may not contain '/'"]);
  });
});
