// printCertificateSigningRequest (pkg/printers/internalversion/printers.go, v1.36): signer, the
// requesting user, the requested duration as HumanDuration prints it, and extractCSRStatus's
// condition summary (Denied over Approved over Pending, then ",Failed" and ",Issued").
import type { KubeObject } from '../../apis/object.ts';
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { arr, obj, str } from './format.ts';
import { humanDuration } from './human-duration.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const doc = (key: string): string => PRINTER_DOCS[key] ?? '';

function csrStatus(o: KubeObject): string {
  const status = obj(o.status);
  const types = new Set(arr(status.conditions).map((c) => str(obj(c).type)));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (str(status.certificate) !== '') text += ',Issued';
  return text;
}

export const certificateSigningRequests: BuiltinPrinter = {
  columns: [
    NAME,
    AGE,
    column('SignerName', 'string', doc('certificateSigningRequestSpec.signerName')),
    column('Requestor', 'string', doc('certificateSigningRequestSpec.request')),
    column('RequestedDuration', 'string', doc('certificateSigningRequestSpec.expirationSeconds')),
    column('Condition', 'string', doc('certificateSigningRequestStatus.conditions')),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const signer = str(spec.signerName) || '<none>';
    // csr.ExpirationSecondsToDuration: whole seconds.
    const duration = typeof spec.expirationSeconds === 'number' ? humanDuration(spec.expirationSeconds * 1000) : '<none>';
    return row(nameOf(o), ageOf(o, now), signer, str(spec.username), duration, csrStatus(o));
  },
};
