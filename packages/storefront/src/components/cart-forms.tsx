'use client';

import { useActionState } from 'react';
import { useFormStatus } from 'react-dom';
import { type ActionState, addToCart, changeQuantity, placeOrder, removeFromCart } from '../lib/actions.ts';

const IDLE: ActionState = { error: null };

function SubmitButton({
  children,
  pendingText,
  className,
}: {
  children: string;
  pendingText: string;
  className?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={className} disabled={pending} aria-disabled={pending}>
      {pending ? pendingText : children}
    </button>
  );
}

function ErrorMessage({ state, id }: { state: ActionState; id: string }) {
  return (
    <p id={id} className="form-error" role="alert">
      {state.error ?? ''}
    </p>
  );
}

/** Quantity and "Add to cart" on the product page. */
export function AddToCartForm({ channel, sku, max }: { channel: string; sku: string; max: number }) {
  const [state, action] = useActionState(addToCart, IDLE);
  const errorId = `add-error-${sku}`;
  return (
    <form action={action} className="add-to-cart">
      <input type="hidden" name="channel" value={channel} />
      <input type="hidden" name="sku" value={sku} />
      <label htmlFor={`qty-${sku}`}>Quantity</label>
      <input
        id={`qty-${sku}`}
        name="qty"
        type="number"
        inputMode="numeric"
        min={1}
        max={Math.max(1, Math.min(999, max))}
        defaultValue={1}
        required
        aria-describedby={errorId}
      />
      <SubmitButton className="primary" pendingText="Adding…">
        Add to cart
      </SubmitButton>
      <ErrorMessage state={state} id={errorId} />
    </form>
  );
}

/** A cart line's quantity with an "Update" button. */
export function QuantityForm({
  channel,
  sku,
  name,
  qty,
}: {
  channel: string;
  sku: string;
  name: string;
  qty: number;
}) {
  const [state, action] = useActionState(changeQuantity, IDLE);
  const errorId = `qty-error-${sku}`;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="channel" value={channel} />
      <input type="hidden" name="sku" value={sku} />
      <label htmlFor={`line-qty-${sku}`} className="visually-hidden">
        Quantity of {name}
      </label>
      <input
        id={`line-qty-${sku}`}
        name="qty"
        type="number"
        inputMode="numeric"
        min={1}
        max={999}
        defaultValue={qty}
        key={qty}
        required
        aria-describedby={errorId}
      />
      <SubmitButton pendingText="Updating…">Update</SubmitButton>
      <ErrorMessage state={state} id={errorId} />
    </form>
  );
}

/** "Remove" for a cart line. */
export function RemoveForm({ channel, sku, name }: { channel: string; sku: string; name: string }) {
  const [state, action] = useActionState(removeFromCart, IDLE);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="channel" value={channel} />
      <input type="hidden" name="sku" value={sku} />
      <button type="submit" className="link-button" aria-label={`Remove ${name}`}>
        Remove
      </button>
      <ErrorMessage state={state} id={`remove-error-${sku}`} />
    </form>
  );
}

/** "Place order". */
export function CheckoutForm({ channel }: { channel: string }) {
  const [state, action] = useActionState(placeOrder, IDLE);
  return (
    <form action={action}>
      <input type="hidden" name="channel" value={channel} />
      <SubmitButton className="primary" pendingText="Placing order…">
        Place order
      </SubmitButton>
      <ErrorMessage state={state} id="checkout-error" />
    </form>
  );
}
