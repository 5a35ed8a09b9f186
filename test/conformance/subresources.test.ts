// Scenarios of fixtures/crd-docs/subresources.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('subresources');
