// Scenarios of fixtures/crd-docs/selectable-fields.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('selectable-fields');
