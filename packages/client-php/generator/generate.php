<?php

declare(strict_types=1);

// Regenerates src/Model/*.php and src/KeygateOperations.php from packages/openapi/openapi.json
// (or the document given as the first argument), removing models the document no longer has.

foreach (['SchemaTypes', 'ModelWriter', 'OperationsWriter', 'Generator', 'Files'] as $class) {
    require __DIR__ . "/{$class}.php";
}

use Keygate\Client\Generator\Files;

$document = $argv[1] ?? Files::DOCUMENT;
$changed = Files::write(Files::generate($document));
echo $changed === [] ? "src/ is up to date\n" : implode('', array_map(static fn (string $f): string => "wrote src/{$f}\n", $changed));
