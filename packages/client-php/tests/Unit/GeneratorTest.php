<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\Generator\Generator;
use PHPUnit\Framework\TestCase;

/** The generator's rules on a small document, so a change to one shows up as a named failure. */
final class GeneratorTest extends TestCase
{
    /** @return array<string, string> */
    private static function generate(): array
    {
        $env = ['type' => 'string', 'enum' => ['live', 'test']];
        return (new Generator([
            'paths' => [
                '/v2/things/{id}' => [
                    'get' => [
                        'operationId' => 'getThing',
                        'summary' => 'Get a thing',
                        'parameters' => [
                            ['name' => 'id', 'in' => 'path', 'required' => true, 'schema' => ['type' => 'string']],
                            ['name' => 'X-Channel', 'in' => 'header', 'required' => true, 'schema' => ['type' => 'string']],
                            ['name' => 'inStock', 'in' => 'query', 'schema' => ['type' => 'string', 'enum' => ['true', 'false']]],
                            ['name' => 'environment', 'in' => 'query', 'schema' => $env],
                        ],
                        'responses' => ['200' => ['content' => ['application/json' => ['schema' => ['$ref' => '#/components/schemas/Thing']]]]],
                    ],
                ],
                '/v2/things' => [
                    'get' => [
                        'operationId' => 'listThings',
                        'parameters' => [['name' => 'cursor', 'in' => 'query', 'schema' => ['type' => 'string']]],
                        'responses' => ['200' => ['content' => ['application/json' => ['schema' => ['$ref' => '#/components/schemas/ThingPage']]]]],
                    ],
                    'post' => [
                        'operationId' => 'createThing',
                        'parameters' => [['$ref' => '#/components/parameters/IdempotencyKey']],
                        'responses' => ['201' => ['content' => ['application/json' => ['schema' => ['$ref' => '#/components/schemas/Thing']]]]],
                    ],
                ],
            ],
            'components' => ['parameters' => [
                'IdempotencyKey' => ['name' => 'Idempotency-Key', 'in' => 'header', 'schema' => ['type' => 'string']],
            ], 'schemas' => [
                'ThingPage' => [
                    'type' => 'object',
                    'properties' => ['data' => ['type' => 'array', 'items' => ['$ref' => '#/components/schemas/Thing']], 'nextCursor' => ['type' => ['string', 'null']]],
                    'required' => ['data', 'nextCursor'],
                ],
                'Environment' => $env,
                'Thing' => [
                    'type' => 'object',
                    'properties' => [
                        'note' => ['type' => ['string', 'null']],
                        'id' => ['type' => 'string'],
                        'environment' => $env,
                        'lines' => ['type' => 'array', 'items' => ['type' => 'object', 'properties' => ['qty' => ['type' => 'integer']], 'required' => ['qty']]],
                        'extra' => ['type' => 'object', 'additionalProperties' => new \stdClass()],
                        'at' => ['anyOf' => [['type' => 'string', 'format' => 'date-time'], ['type' => 'null']]],
                        'ratio' => ['type' => 'number'],
                    ],
                    'required' => ['id', 'note', 'environment', 'lines', 'ratio'],
                ],
            ]],
        ]))->files();
    }

    public function testNamesInlineTypesAfterWhereTheySitAndReusesIdenticalOnes(): void
    {
        self::assertSame(['KeygateOperations.php', 'Model/Environment.php', 'Model/Thing.php', 'Model/ThingLine.php', 'Model/ThingPage.php', 'WebhookEvents.php'], array_keys(self::generate()));
        $thing = self::generate()['Model/Thing.php'];
        self::assertStringContainsString('public readonly Environment $environment,', $thing);
        self::assertStringContainsString("@var list<ThingLine> */\n        public readonly array \$lines,", $thing);
    }

    public function testRequiredMembersComeFirstAndOptionalOnesAreNullableWithADefault(): void
    {
        $thing = self::generate()['Model/Thing.php'];
        self::assertMatchesRegularExpression('/\$note,\s+public readonly string \$id,.*\$ratio,\s+(\/\*\*.*\*\/\s+)?public readonly \?array \$extra = null,\s+public readonly \?\\\\DateTimeImmutable \$at = null,/s', $thing);
        self::assertStringContainsString('public readonly ?string $note,', $thing, 'type [string, null] is ?string, and required');
        self::assertStringContainsString('$data[\'ratio\'] = $this->ratio;', $thing);
        self::assertStringContainsString("(float) \$data['ratio']", $thing, 'a JSON number is a float even when it has no decimals');
        self::assertStringContainsString("if (\$this->at !== null) {\n            \$data['at'] = \$this->at?->format", $thing, 'optional members are left out when null');
    }

    public function testOperationsTakeHeaderParametersByNameAndQueryFlagsAsBools(): void
    {
        $operations = self::generate()['KeygateOperations.php'];
        self::assertStringContainsString("public function getThing(\n        string \$id,\n        string \$channel,\n        ?bool \$inStock = null,\n        ?Model\\Environment \$environment = null,\n    ): Model\\Thing {", $operations);
        self::assertStringContainsString("['X-Channel' => \$channel]", $operations);
        self::assertStringContainsString("'inStock' => (\$inStock === null ? null : (\$inStock ? 'true' : 'false'))", $operations);
    }

    public function testACursorPagedListGetsAnAutoPagingGeneratorOverItsEntries(): void
    {
        $operations = self::generate()['KeygateOperations.php'];
        self::assertStringContainsString("@return \\Generator<int, Model\\Thing>\n     */\n    public function listThingsAutoPaging(\n        ?string \$cursor = null,\n    ): \\Generator {", $operations);
        self::assertStringContainsString("fn (?string \$cursor): Model\\ThingPage => \$this->listThings(cursor: \$cursor),\n            \$cursor,\n            'data',", $operations);
        self::assertStringNotContainsString('getThingAutoPaging', $operations, 'a GET without a cursor has none');
    }

    public function testAParameterByReferenceBecomesAnArgumentLikeAnInlineOne(): void
    {
        $operations = self::generate()['KeygateOperations.php'];
        self::assertStringContainsString("public function createThing(\n        ?string \$idempotencyKey = null,\n    ): Model\\Thing {", $operations);
        self::assertStringContainsString("['Idempotency-Key' => \$idempotencyKey]", $operations);
    }
}
