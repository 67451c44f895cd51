import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { useAction } from '../hooks.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ProblemView } from './problem-view.tsx';

/** Putting the test environment's data back to the seed (the sandbox), behind a confirmation dialog. */
export function SandboxReset(props: { onReset: () => void }) {
  const { notify } = useApp();
  const [open, setOpen] = useState(false);
  const { busy, problem, run } = useAction();

  const reset = () =>
    run(
      async () => {
        await request('POST', '/sandbox/reset');
        setOpen(false);
        props.onReset();
        notify('Test data reset to the seed. Keys, usage and logs are unchanged.');
      },
      () => setOpen(false),
    );

  return (
    <section aria-labelledby="sandbox-heading" class="danger-zone">
      <h2 id="sandbox-heading">Test environment</h2>
      <p>
        Puts the test environment's data back to the seed: products, prices, stock and customers as seeded;
        carts, orders, events and deliveries dropped; webhook endpoints kept. Keys, usage and logs are kept,
        and live data is never touched.
      </p>
      <ProblemView problem={problem} focus />
      <button type="button" class="button-danger" onClick={() => setOpen(true)}>
        Reset test data…
      </button>
      <ConfirmDialog
        open={open}
        title="Reset the test environment's data?"
        confirmLabel="Reset test data"
        busy={busy}
        onCancel={() => setOpen(false)}
        onConfirm={() => void reset()}
      >
        <p>
          Every cart, order, event and delivery of the test environment is dropped. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
