// The OpenAPI v3 schema of a CustomResourceDefinition version as it arrives in JSON
// (apiextensions.k8s.io/v1 JSONSchemaProps). Kept raw: validation of the schema itself reports on
// whatever the user sent, so nothing here is assumed to be well-formed.
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (JSONSchemaPropsOrArray) a list of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** A schema, or (JSONSchemaPropsOrBool) a boolean. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
  [key: string]: unknown;
}

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}
