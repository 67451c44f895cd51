import { useEffect, useRef } from 'preact/hooks';
import { ApiError, type Problem } from '../api.ts';

/** Turns anything thrown into a problem to show. */
export function toProblem(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem;
  return {
    type: 'about:blank',
    title: 'Something went wrong',
    status: 0,
    detail: error instanceof Error ? error.message : String(error),
  };
}

/** Shows a problem's title, detail and field errors as an alert; focuses itself when `focus` is set. */
export function ProblemView(props: { problem: Problem | null; focus?: boolean; id?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.problem && props.focus) ref.current?.focus();
  }, [props.problem, props.focus]);
  const { problem } = props;
  if (!problem) return null;
  return (
    <div ref={ref} id={props.id} class="problem" role="alert" tabIndex={-1}>
      <p class="problem-title">{problem.title}</p>
      {problem.detail ? <p class="problem-detail">{problem.detail}</p> : null}
      {problem.errors && problem.errors.length > 0 ? (
        <ul class="problem-errors">
          {problem.errors.map((error) => (
            <li key={`${error.pointer}:${error.detail}`}>
              <code>{error.pointer || '/'}</code> {error.detail}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
