// The address policy moved to @keygate/webhooks, shared with the gateway's alerts.
export {
  type AddressCheck,
  checkUrlAddress,
  hostOf,
  isPrivateAddress,
  type LookupHost,
  lookupHostWithDns,
  type ResolvedAddress,
} from '@keygate/webhooks';
