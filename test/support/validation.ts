// The setup the validation test files share: one fake cluster per file, opened before its tests
// and closed after them, with the client-node APIs those files write through; and the causes of a
// 422 Invalid Status as the `field: message` lines the tests compare with Go's texts.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../../src/index.ts';
import { expectStatus } from './status.ts';

export interface ValidationApis {
  readonly cluster: FakeCluster;
  readonly core: k8s.CoreV1Api;
  readonly apps: k8s.AppsV1Api;
  readonly batch: k8s.BatchV1Api;
}

/**
 * Registers the file's beforeAll/afterAll and answers the APIs; read them inside tests (they exist
 * once beforeAll has run).
 */
export function useValidationCluster(): ValidationApis {
  let cluster: FakeCluster | undefined;
  let apis: Omit<ValidationApis, 'cluster'> | undefined;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    const kc = cluster.kubeConfig;
    apis = { core: kc.makeApiClient(k8s.CoreV1Api), apps: kc.makeApiClient(k8s.AppsV1Api), batch: kc.makeApiClient(k8s.BatchV1Api) };
  });
  afterAll(() => cluster?.close());
  const ready = () => {
    if (!cluster || !apis) throw new Error('the fake cluster is only there inside tests (after beforeAll)');
    return { cluster, ...apis };
  };
  return {
    get cluster() {
      return ready().cluster;
    },
    get core() {
      return ready().core;
    },
    get apps() {
      return ready().apps;
    },
    get batch() {
      return ready().batch;
    },
  };
}

export interface Cause {
  field: string;
  message: string;
  reason: string;
}

/** The causes of a Status, in order. */
export const statusCauses = (status: Record<string, unknown>): Cause[] => ((status.details as { causes?: Cause[] } | undefined)?.causes ?? []);

/** The causes of a Status as `field: message` lines. */
export const causeLines = (status: Record<string, unknown>): string[] => statusCauses(status).map((c) => `${c.field}: ${c.message}`);

/** Awaits a write that must be refused as 422 Invalid and answers its causes as `field: message` lines. */
export const invalidCauses = async (call: Promise<unknown>): Promise<string[]> => causeLines(await expectStatus(call, { code: 422, reason: 'Invalid' }));
