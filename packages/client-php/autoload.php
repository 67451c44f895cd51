<?php

declare(strict_types=1);

// For use without Composer: loads Keygate\Client\ from src/. The PSR interfaces and Guzzle must be
// loadable already (e.g. Debian's php-guzzlehttp-guzzle and php-psr-* autoloaders under /usr/share/php).
// With Composer, its vendor/autoload.php does this instead.

spl_autoload_register(static function (string $class): void {
    $prefix = 'Keygate\\Client\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
