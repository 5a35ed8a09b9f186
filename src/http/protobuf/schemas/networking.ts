// Protobuf field tables for k8s.io/api/networking/v1 (generated.proto, types.go) at Kubernetes 1.36
// (k8s.io/api and k8s.io/apimachinery v0.36.3): the messages reachable from the kinds in ./index.ts.
// Row: [proto field number, Go json tag, type]; see ../schema.ts for the notation. Listed in Go
// declaration order, which is the order encoding/json writes keys in.
import type { MessageTable } from '../schema.ts';

export const networkingMessages: MessageTable = {
  'networking.HTTPIngressPath': [
    [1, 'path,omitempty', 'string'],
    [3, 'pathType', '*string'],
    [2, 'backend', 'networking.IngressBackend'],
  ],
  'networking.HTTPIngressRuleValue': [
    [1, 'paths', '[]networking.HTTPIngressPath'],
  ],
  'networking.Ingress': [
    [1, 'metadata,omitempty', 'meta.ObjectMeta'],
    [2, 'spec,omitempty', 'networking.IngressSpec'],
    [3, 'status,omitempty', 'networking.IngressStatus'],
  ],
  'networking.IngressBackend': [
    [4, 'service,omitempty', '*networking.IngressServiceBackend'],
    [3, 'resource,omitempty', '*core.TypedLocalObjectReference'],
  ],
  'networking.IngressLoadBalancerIngress': [
    [1, 'ip,omitempty', 'string'],
    [2, 'hostname,omitempty', 'string'],
    [4, 'ports,omitempty', '[]networking.IngressPortStatus'],
  ],
  'networking.IngressLoadBalancerStatus': [
    [1, 'ingress,omitempty', '[]networking.IngressLoadBalancerIngress'],
  ],
  'networking.IngressPortStatus': [
    [1, 'port', 'int32'],
    [2, 'protocol', 'string'],
    [3, 'error,omitempty', '*string'],
  ],
  'networking.IngressRule': [
    [1, 'host,omitempty', 'string'],
    [2, ',inline', 'networking.IngressRuleValue'],
  ],
  'networking.IngressRuleValue': [
    [1, 'http,omitempty', '*networking.HTTPIngressRuleValue'],
  ],
  'networking.IngressServiceBackend': [
    [1, 'name', 'string'],
    [2, 'port,omitempty', 'networking.ServiceBackendPort'],
  ],
  'networking.IngressSpec': [
    [4, 'ingressClassName,omitempty', '*string'],
    [1, 'defaultBackend,omitempty', '*networking.IngressBackend'],
    [2, 'tls,omitempty', '[]networking.IngressTLS'],
    [3, 'rules,omitempty', '[]networking.IngressRule'],
  ],
  'networking.IngressStatus': [
    [1, 'loadBalancer,omitempty', 'networking.IngressLoadBalancerStatus'],
  ],
  'networking.IngressTLS': [
    [1, 'hosts,omitempty', '[]string'],
    [2, 'secretName,omitempty', 'string'],
  ],
  'networking.ServiceBackendPort': [
    [1, 'name,omitempty', 'string'],
    [2, 'number,omitempty', 'int32'],
  ],
};
