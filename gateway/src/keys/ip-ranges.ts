// IP ranges are parsed where the key input schemas need them, in @keygate/contracts.
export {
  formatIpRange,
  type IpRange,
  isEntryCovered,
  isRangeWithin,
  parseIpRange,
} from '@keygate/contracts/gateway';
