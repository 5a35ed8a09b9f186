// Scenarios of test/fixtures/crd-docs that kubefake cannot pass yet, keyed `<fixture>/<scenario>`, with
// one line on why. The runner runs them as `test.fails`: green while they still fail, red as soon as
// one passes, so the entry must then be removed. Never drop or skip a scenario instead of listing it.
//
export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  // Fixture gaps, not kubefake gaps: these stay here until the fixture spells out executable steps.
  'versions/version-priority': 'fixture has no steps, only `versions` and a note (discovery version order); nothing to execute — covered by test/crd-versions.test.ts',
  'versions/storage-version-migration': 'fixture step has no verb, only a note (storage version switch, storedVersions); nothing to execute — covered by test/crd-versions.test.ts',
  'versions/webhook-conversion': 'fixture has no steps, only a note (ConversionReview webhook); nothing to execute — covered by test/crd-versions-webhook.test.ts',
};
