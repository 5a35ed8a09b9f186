// The Kubernetes protobuf media type, apart from the decoder: request handling checks it on every
// body, while the decoder and its schemas (a dozen modules) load only for a protobuf body.
import { contentTypeEssence } from '../media-types.ts';

export const KUBERNETES_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/**
 * Whether a Content-Type names the Kubernetes protobuf encoding. Parameters are ignored, as the
 * apiserver's input negotiation compares only the media type.
 */
export function isKubernetesProtobuf(contentType: string | null | undefined): boolean {
  return contentTypeEssence(contentType ?? null) === KUBERNETES_PROTOBUF_MEDIA_TYPE;
}
