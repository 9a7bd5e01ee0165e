import proxyaddr from 'proxy-addr';
import type { ProxyTrust } from '../config';

/** Whether the address `hop` steps back from the gateway (0: the connection's peer) is a proxy to look past. */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, for Express's `trust proxy` (`req.ip`, which every per-address limit keys on):
 * the client is the nearest address in X-Forwarded-For that is not a trusted proxy, so a value a client wrote
 * itself at the left end of the header is never taken for its address.
 */
export function proxyTrust(setting: ProxyTrust): TrustFunction {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting);
}
