<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\Generator\Files;
use Keygate\Client\Generator\Generator;
use PHPUnit\Framework\TestCase;

/** Like the TypeScript client's drift test: a generated file that no test regenerates will drift. */
final class GeneratedModelsTest extends TestCase
{
    public function testTheCommittedModelsAreWhatTheGeneratorMakesOfTheOpenApiDocument(): void
    {
        $fresh = Files::generate();
        $committed = Files::committed();
        $stale = [];
        foreach ($fresh + $committed as $path => $_) {
            if (($fresh[$path] ?? null) !== ($committed[$path] ?? null)) {
                $stale[] = $path . (isset($fresh[$path]) ? (isset($committed[$path]) ? ' differs' : ' is missing') : ' is no longer generated');
            }
        }
        self::assertSame([], $stale, 'src/ is stale: run `' . Generator::COMMAND . '` and commit the result');
    }

    public function testGenerationIsDeterministic(): void
    {
        self::assertSame(Files::generate(), Files::generate());
    }

    public function testEveryGeneratedFileIsValidPhp(): void
    {
        foreach (Files::generate() as $path => $contents) {
            $tokens = \PhpToken::tokenize($contents, TOKEN_PARSE);
            self::assertNotEmpty($tokens, $path);
        }
    }
}
