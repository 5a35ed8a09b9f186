// Scenarios of fixtures/crd-docs/versions.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('versions');
