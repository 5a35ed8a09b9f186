// Port checks of apimachinery's util/validation (v0.36) and the protocol set core validation
// accepts (supportedPortProtocols), shared by pods, services and network policies.

/** validation.IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** validation.InclusiveRangeError(1, 65535), what IsValidPortNum answers. */
const PORT_RANGE_ERROR = 'must be between 1 and 65535, inclusive';

/** validation.IsValidPortNum. */
export const isValidPortNum = (port: number): string[] => (port >= 1 && port <= 65535 ? [] : [PORT_RANGE_ERROR]);

/** sets.List(supportedPortProtocols): sorted, as NotSupported lists them for pods and services. */
export const SUPPORTED_PORT_PROTOCOLS: readonly string[] = ['SCTP', 'TCP', 'UDP'];
