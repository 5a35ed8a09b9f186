import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.ts';
import { formatChecker } from './formats.ts';
import type { JSONSchemaProps } from './types.ts';

// One clearly valid and one clearly invalid value per format CRDs honour (apiextensions
// validation/formats.go, checked by kube-openapi strfmt and govalidator).
const cases: Array<[format: string, good: string[], bad: string[]]> = [
  ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901', 'zz7f1f77bcf86cd799439011']],
  ['uri', ['https://example.com/a?b=c', '/absolute/path'], ['relative/path', 'not a uri']],
  ['email', ['someone@example.com'], ['someone', '@example.com']],
  ['hostname', ['example.com', 'a-b.example.com'], ['-bad.example.com', 'bad_host!']],
  ['ipv4', ['10.0.0.1', '255.255.255.255'], ['10.0.0.256', '10.0.0', 'fe80::1']],
  ['ipv6', ['fe80::1', '::', '2001:db8::8a2e:370:7334'], ['fe80:::1', '10.0.0.1', '1:2:3:4:5:6:7:8:9']],
  ['cidr', ['10.0.0.0/8', 'fe80::/64'], ['10.0.0.0/33', '10.0.0.0']],
  ['mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E'], ['00:1a:2b', '00:1a:2b:3c:4d:zz']],
  ['uuid', ['123e4567-e89b-12d3-a456-426614174000'], ['123e4567-e89b-12d3-a456']],
  ['uuid3', ['a3bb189e-8bf9-3888-9912-ace4e6543002'], ['a3bb189e-8bf9-4888-9912-ace4e6543002']],
  ['uuid4', ['123e4567-e89b-42d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-426614174000']],
  ['uuid5', ['74738ff5-5367-5958-9aee-98fffdcd1876'], ['74738ff5-5367-4958-9aee-98fffdcd1876']],
  ['isbn10', ['0-306-40615-2'], ['0-306-40615-3']],
  ['isbn13', ['978-0-306-40615-7'], ['978-0-306-40615-8']],
  ['isbn', ['0306406152', '9780306406157'], ['123']],
  ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
  ['ssn', ['123-45-6789'], ['123-456-789', '']],
  ['hexcolor', ['#fff', 'a1b2c3'], ['#ffff', 'ggg']],
  ['rgbcolor', ['rgb(0, 128, 255)'], ['rgb(256,0,0)', 'rgb(1,2)']],
  ['byte', ['aGVsbG8='], ['not base64!', 'aGVsbG8']],
  ['password', ['anything at all'], []],
  ['date', ['2024-02-29', '2023-12-31'], ['2023-02-29', '2024-13-01', '2024-1-1']],
  ['date-time', ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00.5+02:00'], ['2024-01-01 10:00', '2024-01-01T25:00:00Z']],
  ['duration', ['1h30m', '300ms', '3 days'], ['soon', '']],
  ['k8s-short-name', ['my-name'], ['My_Name', 'a'.repeat(64)]],
  ['k8s-long-name', ['my.name-1'], ['My.Name', '-a']],
];

describe('formats', () => {
  it.each(cases)('%s', (format, good, bad) => {
    const check = formatChecker(format)!;
    expect(check).toBeDefined();
    for (const v of good) expect(check(v), v).toBe(true);
    for (const v of bad) expect(check(v), v).toBe(false);
  });

  it('formats CRDs do not honour are stripped at compile time; int32/int64 stay on integers only', () => {
    const node = (s: JSONSchemaProps) => compileSchema(s).root;
    expect(node({ type: 'string', format: 'made-up' }).format).toBe('');
    expect(node({ type: 'string', format: 'int32' }).format).toBe('');
    expect(node({ type: 'integer', format: 'int32' }).format).toBe('int32');
    expect(node({ type: 'integer', format: 'uint8' }).format).toBe('');
    expect(node({ type: 'number', format: 'double' }).format).toBe('double');
    expect(node({ type: 'string', format: 'datetime' }).formatCheck).toBeDefined();
  });
});
