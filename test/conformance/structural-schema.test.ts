// Scenarios of fixtures/crd-docs/structural-schema.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('structural-schema');
