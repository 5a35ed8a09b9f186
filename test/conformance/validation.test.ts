// Scenarios of fixtures/crd-docs/validation.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('validation');
