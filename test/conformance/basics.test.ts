// Scenarios of fixtures/crd-docs/basics.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('basics');
