// Scenarios of fixtures/crd-docs/finalizers.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('finalizers');
