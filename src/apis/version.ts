// What /version reports: kubefake emulates Kubernetes v1.36.
export const KUBERNETES_VERSION = {
  major: '1',
  minor: '36',
  emulationMajor: '1',
  emulationMinor: '36',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '35',
  gitVersion: 'v1.36.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-04-22T00:00:00Z',
  goVersion: 'go1.25.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};
