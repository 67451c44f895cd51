import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api.ts';
import { InputField } from '../components/form-fields.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { ProblemView } from '../components/problem-view.tsx';
import { formatDuration } from '../format.ts';
import { useAction } from '../hooks.ts';
import type { Session } from '../types.ts';

/** The login form: email and password; shows why a login was refused and when to retry. */
export function LoginPage(props: { message: string | null; onLogin: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, problem, run } = useAction();
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    emailRef.current?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setRetryAt(null);
    await run(
      async () => {
        const session = await request<Session>('POST', '/session', { body: { email, password } });
        setPassword('');
        props.onLogin(session);
      },
      (found) => {
        setRetryAt(found.retryAfter ? Date.now() + found.retryAfter * 1000 : null);
        setPassword('');
      },
    );
  };

  return (
    <section class="login">
      <PageHeading title="Log in" />
      {props.message ? (
        <p class="login-message" role="status">
          {props.message}
        </p>
      ) : null}
      <ProblemView problem={problem} id="login-problem" />
      {retryAt ? (
        <p class="retry-after">
          Login is throttled: try again in {formatDuration(retryAt - Date.now())} (at{' '}
          {new Date(retryAt).toLocaleTimeString('en-GB')}).
        </p>
      ) : null}
      <form class="form" onSubmit={submit} aria-describedby={problem ? 'login-problem' : undefined}>
        <InputField
          inputRef={emailRef}
          id="login-email"
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
        />
        <InputField
          id="login-password"
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <button type="submit" class="button-primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </section>
  );
}
