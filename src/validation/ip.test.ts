// validation.IsValidIP's cases (apimachinery pkg/util/validation/ip.go, ip_test.go's families):
// sloppy parsing with the strict refusals and Go's net.IP String() as the canonical form.
import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '../errors/field-error.ts';
import { isValidIP } from './ip.ts';

const check = (value: string) => isValidIP('ip', value).map(fieldErrorMessage);

describe('isValidIP', () => {
  it('accepts canonical IPv4 and IPv6 addresses', () => {
    for (const ip of ['1.2.3.4', '0.0.0.0', '::', '::1', '1::', '2001:db8::ffff', '1:0:0:1::1', '2001:db8::1:0:0:1']) expect(check(ip), ip).toEqual([]);
  });

  it('refuses what is no IP, zones included', () => {
    for (const ip of ['bogus', '1.2.3', '1.2.3.256', 'fe80::1%eth0', '', '1.2.3.4/32', '1.2.3.4:80', '[2001:db8::1]', '2001:db8::10005', '-1.0.0.0']) {
      expect(check(ip)).toEqual([`ip: Invalid value: ${JSON.stringify(ip)}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`]);
    }
  });

  it('refuses leading zeros, IPv4-mapped IPv6 and non-canonical IPv6 forms', () => {
    // parseIP's refusals end the check: no canonical-form error follows them (ip.go, ip_test.go).
    expect(check('010.1.1.1')).toEqual(['ip: Invalid value: "010.1.1.1": must not have leading 0s']);
    expect(check('::ffff:1.2.3.4')).toEqual(['ip: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address']);
    expect(check('0001:002:03:4::')).toEqual(['ip: Invalid value: "0001:002:03:4::": must be in canonical form ("1:2:3:4::")']);
    expect(check('2001:DB8::1')).toEqual(['ip: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")']);
    expect(check('2001:db8:0:0:1:0:0:1')).toEqual(['ip: Invalid value: "2001:db8:0:0:1:0:0:1": must be in canonical form ("2001:db8::1:0:0:1")']);
    expect(check('0:0:0:0:0:0:0:0')).toEqual(['ip: Invalid value: "0:0:0:0:0:0:0:0": must be in canonical form ("::")']);
  });
});
