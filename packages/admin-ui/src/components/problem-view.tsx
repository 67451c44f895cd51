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

function fieldOf(pointer: string, fields: Record<string, string>): string | undefined {
  const match = Object.keys(fields).find((f) => pointer === f || pointer.startsWith(`${f}/`));
  return match === undefined ? undefined : fields[match];
}

function FieldLink(props: { pointer: string; target: string | undefined }) {
  const label = <code>{props.pointer || '/'}</code>;
  if (!props.target) return label;
  const target = props.target;
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    document.getElementById(target)?.focus();
  };
  return (
    <a href={`#${target}`} onClick={onClick}>
      {label}
    </a>
  );
}

/**
 * Shows a problem as an alert: its title, then either its field errors (each linking to its input
 * when `fields` maps pointers to element ids) or its detail. Focuses itself when `focus` is set.
 */
export function ProblemView(props: {
  problem: Problem | null;
  focus?: boolean;
  id?: string;
  fields?: Record<string, string>;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.problem && props.focus) ref.current?.focus();
  }, [props.problem, props.focus]);
  const { problem } = props;
  if (!problem) return null;
  const errors = problem.errors ?? [];
  return (
    <div ref={ref} id={props.id} class="problem" role="alert" tabIndex={-1}>
      <p class="problem-title">{problem.title}</p>
      {errors.length > 0 ? (
        <ul class="problem-errors">
          {errors.map((error) => (
            <li key={`${error.pointer}:${error.detail}`}>
              <FieldLink pointer={error.pointer} target={fieldOf(error.pointer, props.fields ?? {})} />{' '}
              {error.detail}
            </li>
          ))}
        </ul>
      ) : problem.detail ? (
        <p class="problem-detail">{problem.detail}</p>
      ) : null}
    </div>
  );
}
