'use server';

import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiProblemError } from './api.ts';
import { addItem, checkout, openCart, readCart, removeLine, setQuantity } from './cart.ts';
import { BUYING_AS_COOKIE, buyingAsChoices, currentCustomer } from './customer.ts';

/** What a form shows after its action: nothing, or a message for the visitor. */
export type ActionState = { error: string | null };

const CHANNEL = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'Unknown channel.');
const SKU = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Unknown product.');
const QTY = z.coerce
  .number({ error: 'Enter a quantity from 1 to 999.' })
  .int('Enter a whole number from 1 to 999.')
  .min(1, 'Enter a quantity from 1 to 999.')
  .max(999, 'Enter a quantity from 1 to 999.');

const LineFormSchema = z.object({ channel: CHANNEL, sku: SKU, qty: QTY });
const RemoveFormSchema = z.object({ channel: CHANNEL, sku: SKU });
const ChannelFormSchema = z.object({ channel: CHANNEL });

function parseForm<T extends z.ZodType>(schema: T, form: FormData): z.infer<T> | string {
  const parsed = schema.safeParse(Object.fromEntries(form));
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? 'Invalid input.');
}

/** The visitor-facing message of a failed call; anything but an API problem is a bug and rethrown. */
function messageOf(error: unknown): string {
  if (!(error instanceof ApiProblemError)) throw error;
  if (error.isBusy) return 'The shop is busy right now. Please try again in a moment.';
  return error.problem.detail;
}

/** Adds the product to the channel's cart (creating it) and opens the cart. */
export async function addToCart(_previous: ActionState, form: FormData): Promise<ActionState> {
  const input = parseForm(LineFormSchema, form);
  if (typeof input === 'string') return { error: input };
  try {
    const cart = await openCart(input.channel, await currentCustomer());
    await addItem(cart.id, input.sku, input.qty);
  } catch (error) {
    return { error: messageOf(error) };
  }
  redirect(`/${input.channel}/cart`);
}

/** Sets a cart line's quantity. */
export async function changeQuantity(_previous: ActionState, form: FormData): Promise<ActionState> {
  const input = parseForm(LineFormSchema, form);
  if (typeof input === 'string') return { error: input };
  try {
    const cart = await readCart(input.channel);
    if (!cart) return { error: 'Your cart has expired. Please add the products again.' };
    await setQuantity(cart.id, input.sku, input.qty);
  } catch (error) {
    return { error: messageOf(error) };
  }
  revalidatePath(`/${input.channel}/cart`);
  return { error: null };
}

/** Removes a cart line. */
export async function removeFromCart(_previous: ActionState, form: FormData): Promise<ActionState> {
  const input = parseForm(RemoveFormSchema, form);
  if (typeof input === 'string') return { error: input };
  try {
    const cart = await readCart(input.channel);
    if (!cart) return { error: 'Your cart has expired. Please add the products again.' };
    await removeLine(cart.id, input.sku);
  } catch (error) {
    return { error: messageOf(error) };
  }
  revalidatePath(`/${input.channel}/cart`);
  return { error: null };
}

/** Turns the channel's cart into an order and shows its confirmation. */
export async function placeOrder(_previous: ActionState, form: FormData): Promise<ActionState> {
  const input = parseForm(ChannelFormSchema, form);
  if (typeof input === 'string') return { error: input };
  let orderId: string;
  try {
    const cart = await readCart(input.channel);
    if (!cart) return { error: 'Your cart has expired. Please add the products again.' };
    orderId = (await checkout(input.channel, cart.id)).id;
  } catch (error) {
    return { error: messageOf(error) };
  }
  redirect(`/${input.channel}/orders/${orderId}`);
}

/** The "buying as" switcher (development): whose prices the shop shows; empty means a guest. */
export async function chooseCustomer(form: FormData): Promise<void> {
  const channel = CHANNEL.safeParse(form.get('channel'));
  const customer = String(form.get('customer') ?? '');
  const jar = await cookies();
  if (customer && buyingAsChoices().includes(customer)) {
    jar.set(BUYING_AS_COOKIE, customer, { httpOnly: true, sameSite: 'lax', path: '/' });
  } else {
    jar.delete(BUYING_AS_COOKIE);
  }
  redirect(channel.success ? `/${channel.data}` : '/');
}
