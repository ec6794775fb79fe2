import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { Ajv } from 'ajv';
import t from 'tap';
import { packageRoot } from '../../../lib/package.js';
import { loadSchema, schemaPath, type SchemaKind } from '../../../lib/protocol/schemas.js';

const kinds: SchemaKind[] = ['input', 'output', 'script'];
const require = createRequire(import.meta.url);

for (const kind of kinds) {
  t.test(`${kind}: schemaPath points at lib/protocol/schemas/${kind}.schema.json in the package`, async (t) => {
    const path = schemaPath(kind);
    t.ok(isAbsolute(path));
    t.equal(path, join(packageRoot(), 'lib', 'protocol', 'schemas', `${kind}.schema.json`));
    t.ok(existsSync(path), 'the file exists');
  });

  t.test(`${kind}: the file is a valid draft-07 JSON Schema`, async (t) => {
    const schema = JSON.parse(readFileSync(schemaPath(kind), 'utf8')) as Record<string, unknown>;
    t.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    t.match(schema.$id, new RegExp(`/${kind}\\.schema\\.json$`));
    t.equal(schema.type, 'object');
    const ajv = new Ajv({ discriminator: true, strict: false });
    t.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
    t.type(ajv.compile(schema), 'function');
  });

  t.test(`${kind}: loadSchema gives the parsed file, a fresh copy each time`, async (t) => {
    const loaded = loadSchema(kind);
    t.same(loaded, JSON.parse(readFileSync(schemaPath(kind), 'utf8')));
    t.not(loadSchema(kind), loaded);
  });

  t.test(`${kind}: importable as zero-stream/schemas/${kind}.schema.json`, async (t) => {
    t.equal(require.resolve(`zero-stream/schemas/${kind}.schema.json`), schemaPath(kind));
  });
}

t.test('package.json maps ./schemas/* to the schema folder and ships it', async (t) => {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { exports: Record<string, unknown>; files: string[] };
  t.equal(pkg.exports['./schemas/*'], './lib/protocol/schemas/*');
  t.ok(pkg.files.includes('lib/protocol/schemas'), 'the schema folder is in "files"');
});

t.test('input and output schemas discriminate on type', async (t) => {
  for (const kind of ['input', 'output'] as const) {
    const schema = loadSchema(kind) as { discriminator: unknown; oneOf: { properties: { type: { const: string } }; additionalProperties: boolean }[] };
    t.same(schema.discriminator, { propertyName: 'type' });
    for (const branch of schema.oneOf) {
      t.type(branch.properties.type.const, 'string');
      t.equal(branch.additionalProperties, false, `${kind} ${branch.properties.type.const} is strict`);
    }
  }
  const types = (loadSchema('output') as { oneOf: { properties: { type: { const: string } } }[] }).oneOf.map((b) => b.properties.type.const);
  t.same(types.sort(), ['error', 'final', 'heartbeat', 'permission_decision', 'permission_request', 'run_end', 'run_start', 'text', 'tool_call', 'tool_result', 'turn_end', 'turn_start', 'usage', 'warning']);
});
