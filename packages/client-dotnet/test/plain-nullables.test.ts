import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DOCUMENT_PATH } from '../scripts/kiota.ts';
import { toPlainNullables, useDateOnly } from '../scripts/plain-nullables.ts';

/** Every schema in `node` that still says "or null" the 3.1 way. */
function nullUnions(node: unknown, path = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => nullUnions(item, `${path}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  const schema = node as Record<string, unknown>;
  const here =
    (Array.isArray(schema.type) && schema.type.includes('null')) ||
    ['anyOf', 'oneOf'].some(
      (key) => Array.isArray(schema[key]) && JSON.stringify(schema[key]).includes('"type":"null"'),
    )
      ? [path]
      : [];
  return [...here, ...Object.entries(schema).flatMap(([key, value]) => nullUnions(value, `${path}/${key}`))];
}

describe('the plain-nullable copy of the OpenAPI document (.NET generation only)', () => {
  it('rewrites every "X or null" of the served document and leaves that document as it is', async () => {
    const text = await readFile(DOCUMENT_PATH, 'utf8');
    const served = JSON.parse(text) as Record<string, unknown>;
    assert.ok(nullUnions(served).length > 50, 'the served document writes "or null" the 3.1 way');

    const plain = toPlainNullables(served);

    assert.deepEqual(nullUnions(plain), []);
    assert.equal(
      JSON.stringify(served),
      JSON.stringify(JSON.parse(text)),
      'the served document is unchanged',
    );
  });

  it('keeps the branch, its description and default, and marks it nullable', () => {
    const plain = toPlainNullables({
      checkedOutAt: {
        anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
        description: 'When.',
      },
      tier: { default: null, anyOf: [{ type: 'string', enum: ['gold'] }, { type: 'null' }] },
      price: { anyOf: [{ $ref: '#/components/schemas/UnitPrice' }, { type: 'null' }] },
      customerTier: {
        anyOf: [{ $ref: '#/components/schemas/CustomerTier' }, { type: 'null' }],
        description: 'The tier of a `tier` price.',
      },
      nextCursor: { type: ['string', 'null'] },
      expiresAt: { anyOf: [{ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    });
    assert.deepEqual(plain, {
      checkedOutAt: { type: 'string', format: 'date-time', description: 'When.', nullable: true },
      tier: { type: 'string', enum: ['gold'], nullable: true },
      price: { $ref: '#/components/schemas/UnitPrice', nullable: true },
      // Beside the `$ref`, the description could become the enum's own summary on some Kiota runs.
      customerTier: {
        allOf: [{ $ref: '#/components/schemas/CustomerTier' }],
        description: 'The tier of a `tier` price.',
        nullable: true,
      },
      nextCursor: { type: 'string', nullable: true },
      expiresAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', nullable: true, format: 'date' },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    });
  });

  it('gives date properties DateOnly and refuses a use of Kiota Date it does not know', () => {
    const source = [
      '        public Date? ExpiresAt { get; set; }',
      '                { "expiresAt", n => { ExpiresAt = n.GetDateValue(); } },',
      '            writer.WriteDateValue("expiresAt", ExpiresAt);',
    ].join('\n');
    const rewritten = useDateOnly(source, 'Models/ApiKey.cs');
    assert.match(rewritten, /public DateOnly\? ExpiresAt/);
    assert.match(rewritten, /new DateOnly\(date\.Year, date\.Month, date\.Day\)/);
    assert.doesNotMatch(rewritten, /\bDate\?/);
    assert.throws(() => useDateOnly('public List<Date?> Days { get; set; }', 'Models/X.cs'), /Models\/X\.cs/);
  });
});
