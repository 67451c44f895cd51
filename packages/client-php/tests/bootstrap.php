<?php

declare(strict_types=1);

// With `composer install` the vendor autoloader has everything; without it (as in this repository,
// where only Debian's packages are reachable) Debian's autoloaders under /usr/share/php provide
// Guzzle, the PSR interfaces, psr/log and nyholm/psr7 (a second PSR-7/17 implementation the unit
// tests use), and autoload.php loads the client.

if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require __DIR__ . '/../vendor/autoload.php';
    return;
}
foreach ([
    'GuzzleHttp/autoload.php',
    'GuzzleHttp/Psr7/autoload.php',
    'Psr/Http/Client/autoload.php',
    'Psr/Http/Message/autoload.php',
    'Psr/Http/Message/factory-autoload.php',
    'Psr/Log/autoload.php',
    'Nyholm/Psr7/autoload.php',
] as $file) {
    if (stream_resolve_include_path($file) === false) {
        fwrite(STDERR, "missing {$file}: install Debian's php-guzzlehttp-guzzle, php-psr-http-*, php-psr-log and php-nyholm-psr7\n");
        exit(1);
    }
    require_once $file;
}
require __DIR__ . '/../autoload.php';
foreach (['SchemaTypes', 'ModelWriter', 'OperationsWriter', 'Generator', 'Files'] as $class) {
    require_once __DIR__ . "/../generator/{$class}.php";
}
spl_autoload_register(static function (string $class): void {
    $prefix = 'Keygate\\Client\\Tests\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
