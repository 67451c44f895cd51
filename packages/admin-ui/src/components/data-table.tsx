import type { ComponentChildren } from 'preact';

/**
 * A table in its scrolling wrapper: a caption for screen readers, one header row (plus, with
 * `actions`, a last column for row buttons, named for screen readers only) and the given rows.
 */
export function DataTable(props: {
  class: string;
  caption: string;
  columns: string[];
  actions?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={props.class}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {props.actions ? (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
