// Scenarios of the shared fixtures that kubefake cannot pass yet, keyed `<fixture>/<scenario>`, with
// one line on why. The runner runs them as `test.fails`: green while they still fail, red as soon as
// one passes, so the entry must then be removed. Never drop or skip a scenario instead of listing it.
//
export const KNOWN_GAPS: Readonly<Record<string, string>> = {

  'cel/rule-message': 'CEL x-kubernetes-validations are not evaluated yet (issue 7)',
  'cel/rule-without-message': 'CEL x-kubernetes-validations are not evaluated yet (issue 7)',
  'cel/compile-errors-reject-the-crd': 'CRD create does not compile CEL rules yet: 201 instead of 422 "compilation failed"',
  'cel/message-expression-reason-field-path': 'CEL x-kubernetes-validations are not evaluated yet (issue 7)',
  'cel/transition-rule': 'CEL x-kubernetes-validations are not evaluated yet (issue 7)',
  'cel/cost-budget': 'CRD create does not estimate CEL cost yet: 201 instead of 422 "exceeded budget"',





  'selectable-fields/shirts': 'selectableFields are not honoured in field selectors yet (issue 8)',

  'structural-schema/non-structural-example-3-is-rejected': 'the fixture expects spec.versions[0].schema.openAPIV3Schema… paths; the 1.36 source converts identical per-version schemas to spec.validation.openAPIV3Schema before validating, and kubefake follows the source',
  'structural-schema/forbidden-keywords': 'fixture disagrees with the 1.36 source: spec.validation… paths (see above), and `additionalProperties: false` alone is accepted since 1.11',

  'subresources/status-and-scale': 'the status and scale subresources are not served yet (issue 8)',


  'versions/deprecation-warnings': 'the default deprecation text lacks "; use <newer version>" (issue 10)',
  // Fixture gaps, not kubefake gaps: these stay here until the fixture spells out executable steps.
  'versions/version-priority': 'fixture has no steps, only `versions` and a note (discovery version order); nothing to execute',
  'versions/storage-version-migration': 'fixture step has no verb, only a note (storage version switch, storedVersions); nothing to execute',
  'versions/webhook-conversion': 'fixture has no steps, only a note (ConversionReview webhook); nothing to execute',
};
