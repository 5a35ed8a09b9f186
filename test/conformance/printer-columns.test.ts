// Scenarios of fixtures/crd-docs/printer-columns.yaml (see runner.ts; known gaps in known-gaps.ts).
import { defineFixtureTests } from './runner.ts';

defineFixtureTests('printer-columns');
