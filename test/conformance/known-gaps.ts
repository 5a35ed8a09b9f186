// Scenarios of the shared fixtures that kubefake cannot pass yet, keyed `<fixture>/<scenario>`, with
// one line on why. The runner runs them as `test.fails`: green while they still fail, red as soon as
// one passes, so the entry must then be removed. Never drop or skip a scenario instead of listing it.
//
// "CRDs not served" = kubefake stores CustomResourceDefinitions but serves no custom kind yet: no
// discovery for the group (404), no endpoints, cluster.apply() cannot create custom objects.
export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  'basics/create-and-list': 'CRDs not served: creating a CronTab fails, discovery of stable.example.com/v1 is 404',
  'basics/delete-crd-removes-objects': 'CRDs not served: apply() of the CronTab manifest fails (no resource serves CronTab)',

  'cel/rule-message': 'CRDs not served (CronTab 404); then needs x-kubernetes-validations rules with message',
  'cel/rule-without-message': 'CRDs not served (CronTab 404); then needs x-kubernetes-validations "failed rule" messages',
  'cel/compile-errors-reject-the-crd': 'CRD create does not compile CEL rules yet: 201 instead of 422 "compilation failed"',
  'cel/message-expression-reason-field-path': 'CRDs not served (CronTab 404); then needs CEL messageExpression, reason and fieldPath',
  'cel/transition-rule': 'CRDs not served (CronTab 404); then needs CEL transition rules (oldSelf) on update',
  'cel/cost-budget': 'CRD create does not estimate CEL cost yet: 201 instead of 422 "exceeded budget"',

  'defaulting/defaults-on-create': 'CRDs not served (CronTab 404); then needs schema defaulting on create',
  'defaulting/nullable': 'CRDs not served (CronTab 404); then needs nullable/default handling of nulls',

  'finalizers/finalizer-blocks-deletion': 'CRDs not served: apply() of the CronTab manifest fails; then needs finalizers on custom objects',

  'printer-columns/table': 'CRDs not served: apply() of the CronTab manifest fails; then needs Table output with additionalPrinterColumns',

  'pruning/unknown-field-is-pruned': 'CRDs not served (CronTab 404); then needs pruning of unknown fields',
  'pruning/strict-field-validation-rejects-unknown-fields': 'CRDs not served (CronTab 404); then needs fieldValidation Strict/Warn for custom kinds',
  'pruning/preserve-unknown-fields-subtree': 'CRDs not served (CronTab 404); then needs x-kubernetes-preserve-unknown-fields',
  'pruning/int-or-string': 'CRDs not served (CronTab 404); then needs x-kubernetes-int-or-string validation',
  'pruning/embedded-resource': 'CRDs not served (CronTab 404); then needs x-kubernetes-embedded-resource validation',

  'selectable-fields/shirts': 'CRDs not served: apply() of the Shirt manifests fails; then needs selectableFields in field selectors',

  'structural-schema/non-structural-example-3-is-rejected': 'CRD create does not check structural schemas yet: 201 instead of 422 Invalid',
  'structural-schema/forbidden-keywords': 'CRD create does not reject $ref, additionalProperties false/with properties, uniqueItems yet: 201 instead of 422',

  'subresources/status-and-scale': 'CRDs not served: apply() of the CronTab manifest fails; then needs the status and scale subresources',
  'subresources/categories': 'CRDs not served: discovery of stable.example.com/v1 is 404',

  'validation/pattern-and-maximum': 'CRDs not served (CronTab 404); then needs OpenAPI schema validation (pattern, maximum)',

  'versions/none-conversion': 'CRDs not served (CronTab 404 in example.com/v1beta1); then needs multi-version serving with None conversion',
  'versions/deprecation-warnings': 'CRDs not served (list in example.com/v1alpha1 is 404); then needs deprecated-version Warning headers',
  // Fixture gaps, not kubefake gaps: these stay here until the fixture spells out executable steps.
  'versions/version-priority': 'fixture has no steps, only `versions` and a note (discovery version order); nothing to execute',
  'versions/storage-version-migration': 'fixture step has no verb, only a note (storage version switch, storedVersions); nothing to execute',
  'versions/webhook-conversion': 'fixture has no steps, only a note (ConversionReview webhook); nothing to execute',
};
