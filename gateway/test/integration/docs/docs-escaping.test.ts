import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { loadConfig } from '../../../src/config.ts';
import { createDocsRouter } from '../../../src/docs/docs-router.ts';

const routeTable = loadConfig({ KEYGATE_DATA_DIR: '/tmp/keygate-test-unused' }).routes;

/** A hostile string naming the field it was put in: breaks out of attributes, opens tags, redirects. */
const evil = (field: string) =>
  `"'><script>${field}</script><meta http-equiv=refresh content="0;url=https://evil.example/${field}">`;

/** What the escaped payload of `field` looks like on the page (the part without quotes). */
const escapedMark = (field: string) => `&lt;script&gt;${field}&lt;/script&gt;`;

const schemaFields = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/** Every string the renderer reads, each hostile. */
function hostileDocument() {
  const constrained = Object.fromEntries(schemaFields.map((key) => [key, evil(key)]));
  return {
    openapi: `3.1.0${evil('openapi')}`,
    info: {
      title: evil('title'),
      version: evil('version'),
      summary: evil('summary'),
      description: evil('info-description'),
    },
    servers: [{ url: evil('server-url'), description: evil('server-description') }],
    tags: [{ name: evil('tag-name'), description: evil('tag-description') }],
    paths: {
      [`/v2/${evil('path')}`]: {
        parameters: [
          { name: evil('path-param-name'), in: evil('path-param-in'), schema: { type: 'string' } },
        ],
        post: {
          operationId: evil('operationId'),
          tags: [evil('tag-name')],
          summary: evil('op-summary'),
          description: evil('op-description'),
          'x-required-scope': evil('scope'),
          parameters: [
            {
              name: evil('param-name'),
              in: evil('param-in'),
              description: evil('param-description'),
              schema: {
                type: evil('type'),
                pattern: evil('pattern'),
                format: evil('format'),
                default: evil('default'),
                ...constrained,
              },
            },
            { name: 'e', in: 'query', schema: { enum: [evil('enum')] } },
            { name: 'c', in: 'query', schema: { const: evil('const') } },
            { name: 'r', in: 'query', schema: { $ref: `#/x/${evil('ref')}` } },
            { name: 't', in: 'query', schema: { type: ['string', evil('type-list')] } },
          ],
          requestBody: {
            description: evil('body-description'),
            content: { [evil('media-type')]: { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          responses: {
            [evil('status')]: { description: evil('response-description') },
            '200': {
              description: 'ok',
              headers: { [evil('header-name')]: { schema: { type: 'string' } } },
              content: {
                'application/json': {
                  schema: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        [evil('property')]: { type: 'string', description: evil('property-description') },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    webhooks: { [evil('webhook')]: { post: { summary: evil('webhook-summary'), responses: {} } } },
    components: {
      securitySchemes: {
        [evil('scheme-name')]: {
          type: evil('scheme-type'),
          scheme: evil('scheme-scheme'),
          bearerFormat: evil('bearer-format'),
          description: evil('scheme-description'),
        },
      },
      headers: {
        [evil('component-header')]: {
          description: evil('header-description'),
          schema: { minimum: evil('header-minimum') },
        },
      },
      schemas: {
        Thing: { type: 'object', properties: { id: { maxLength: evil('nested-max-length') } } },
        [evil('schema-name')]: { type: 'string' },
      },
    },
    'x-problem-types': [
      {
        status: evil('problem-status'),
        code: evil('problem-code'),
        title: evil('problem-title'),
        type: evil('problem-type'),
      },
    ],
  };
}

/** The tags the page's own markup uses; anything else came from the document. */
const PAGE_TAGS = new Set(
  'html head meta title style body nav main h1 h2 h3 h4 p ul li a div span code strong table thead tbody tr th td section'.split(
    ' ',
  ),
);

describe('the reference page of a hostile document', () => {
  let page: string;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      const document = hostileDocument();
      writeFileSync(file, JSON.stringify(document));
      const app = express().use(createDocsRouter({ openapiFile: file, routeTable }));
      const res = await request(app).get('/docs');
      assert.equal(res.status, 200);
      page = res.text;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows every field it reads, escaped', () => {
    const fields = [...JSON.stringify(hostileDocument()).matchAll(/<script>([\w-]+)<\/script>/g)].map(
      (m) => m[1] ?? '',
    );
    const missing = [...new Set(fields)].filter((field) => !page.includes(escapedMark(field)));
    assert.ok(fields.length > 50, 'the hostile document is read');
    assert.deepEqual(missing, []);
  });

  it('lets no tag, attribute break-out or refresh from the document through', () => {
    assert.doesNotMatch(page, /<script|<meta http-equiv|"'>/i);
    const tags = new Set([...page.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => (m[1] ?? '').toLowerCase()));
    assert.deepEqual(
      [...tags].filter((tag) => !PAGE_TAGS.has(tag)),
      [],
    );
    assert.equal((page.match(/<meta/g) ?? []).length, 2, 'only the page’s charset and viewport');
  });
});
