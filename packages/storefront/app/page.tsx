import { redirect } from 'next/navigation';
import { storefrontEnv } from '../src/lib/env.ts';

/** `/` opens the default channel's home. */
export default function Index() {
  redirect(`/${storefrontEnv().STOREFRONT_DEFAULT_CHANNEL}`);
}
