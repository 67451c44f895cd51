<?php

declare(strict_types=1);

namespace Keygate\Client\Generator;

/** Writes the `KeygateOperations` trait: one method per operation, named by its `operationId`. */
final class OperationsWriter
{
    /** @param array<string, mixed> $document */
    public function __construct(private readonly array $document, private readonly SchemaTypes $types)
    {
    }

    /** The `KeygateOperations` trait: one method per operation of the document, named by its `operationId`. */
    public function operationsTrait(): string
    {
        $methods = [];
        foreach ($this->document['paths'] as $path => $operations) {
            foreach ($operations as $method => $operation) {
                if (!is_array($operation) || !isset($operation['operationId'])) {
                    continue;
                }
                $methods[] = $this->operationMethod(strtoupper($method), $path, $operation);
                if ($method === 'get' && $this->isCursorPaged($operation)) {
                    $methods[] = $this->autoPagingMethod($path, $operation);
                }
            }
        }
        return "<?php\n\n" . Generator::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client;\n\n"
            . "/**\n * Every operation of the keygate API, one method each, named by its `operationId`. Each sends\n"
            . " * through `KeygateClient::send()`, so retries, rate-limit state, notices and exceptions apply.\n"
            . " * Each cursor-paged list also has an `…AutoPaging` method: a generator over all its entries.\n */\n"
            . "trait KeygateOperations\n{\n"
            . implode("\n", $methods)
            . "}\n";
    }

    private function operationMethod(string $method, string $path, array $operation): string
    {
        $id = $operation['operationId'];
        $owner = SchemaTypes::pascal($id);
        $parameters = $this->parameters($operation, $owner);
        [$body, $bodyArg, $isBodyRequired] = $this->body($operation, $owner);
        $args = [...$parameters['required'], ...($isBodyRequired ? [$bodyArg] : []), ...$parameters['optional'],
            ...(!$isBodyRequired && $bodyArg !== null ? [$bodyArg] : []), ...$parameters['shared']];
        [$returnType, $decoder] = $this->responseOf($operation, $owner);
        $textType = $decoder === null ? $this->textTypeOf($operation) : null;
        if ($textType !== null) {
            $returnType = isset($operation['responses']['304']) ? '?string' : 'string';
        }
        $signature = self::signature($args);
        $summary = $operation['summary'] ?? $id;
        $doc = "    /**\n     * " . str_replace("\n", ' ', trim($summary)) . " (`{$method} {$path}`).\n";
        foreach ($parameters['docs'] as $line) {
            $doc .= "     * {$line}\n";
        }
        $doc .= "     */\n";
        $list = static fn (array $items): string => $items === [] ? '[]' : '[' . implode(', ', $items) . ']';
        $call = "\$this->send(\n            '{$method}',\n            " . var_export($path, true) . ",\n            "
            . $list($parameters['path']) . ",\n            " . $list($parameters['query']) . ",\n            "
            . $list($parameters['header']) . ",\n            {$body},\n        )";
        if ($textType !== null) {
            $call = "\$this->sendForText(\n            '{$method}',\n            " . var_export($path, true) . ",\n            "
                . $list($parameters['path']) . ",\n            " . $list($parameters['query']) . ",\n            "
                . $list($parameters['header']) . ",\n            " . var_export($textType, true) . ",\n        )";
        }
        $statement = $decoder === null && $textType === null
            ? "        {$call};\n"
            : ($textType !== null ? "        return {$call};\n" : "        \$data = {$call};\n        return {$decoder};\n");
        $open = $args === [] ? "\n    {" : ' {';
        return $doc . "    public function {$id}{$signature}: {$returnType}{$open}\n{$statement}    }\n";
    }

    /** @param list<string> $args */
    private static function signature(array $args): string
    {
        return $args === [] ? '()' : "(\n        " . implode(",\n        ", $args) . ",\n    )";
    }

    /** A GET with a `cursor` query parameter whose answer carries `nextCursor`. */
    private function isCursorPaged(array $operation): bool
    {
        $names = array_column(array_map(fn (array $p): array => $this->resolveParameter($p), $operation['parameters'] ?? []), 'in', 'name');
        return ($names['cursor'] ?? null) === 'query' && isset($this->pageSchema($operation)['properties']['nextCursor']);
    }

    /** @return array<string, mixed> the (flattened) schema of an operation's 200 JSON answer */
    private function pageSchema(array $operation): array
    {
        $schema = $operation['responses']['200']['content']['application/json']['schema'] ?? [];
        return $this->types->flatten(isset($schema['$ref']) ? $this->types->component($schema['$ref']) : $schema);
    }

    /**
     * `<operationId>AutoPaging`: the operation's arguments, returning a generator over the entries
     * of its `data` or `items` list, page after page; a page of several lists is yielded whole.
     */
    private function autoPagingMethod(string $path, array $operation): string
    {
        $id = $operation['operationId'];
        $owner = SchemaTypes::pascal($id);
        $parameters = $this->parameters($operation, $owner);
        [$pageType] = $this->responseOf($operation, $owner);
        $page = $this->pageSchema($operation);
        $member = null;
        foreach (['data', 'items'] as $name) {
            if (($page['properties'][$name]['type'] ?? null) === 'array') {
                $member = $name;
                break;
            }
        }
        $itemType = $pageType;
        if ($member !== null) {
            $item = $this->types->typeOf($page['properties'][$member], substr($pageType, strlen('Model\\')), $member)['item'];
            $itemType = $item['kind'] === 'class' ? "Model\\{$item['php']}" : $item['php'];
        }
        $named = implode(', ', array_map(static fn (string $v): string => "{$v}: \${$v}", $parameters['vars']));
        $what = $member === null ? "Each page of `{$id}` (`GET {$path}`) in turn, whole" : "Every entry of `{$member}` of `{$id}` (`GET {$path}`), page after page";
        $text = "{$what}: a generator that fetches each page "
            . "(one `{$id}` call) only when the loop reaches it, and stops after the last one.";
        $doc = "    /**\n     * " . wordwrap($text, 96, "\n     * ") . "\n     * @return \\Generator<int, {$itemType}>\n     */\n";
        return $doc . "    public function {$id}AutoPaging" . self::signature([...$parameters['required'], ...$parameters['optional'], ...$parameters['shared']])
            . ": \\Generator {\n        return Internal\\AutoPager::walk(\n"
            . "            fn (?string \$cursor): {$pageType} => \$this->{$id}({$named}),\n"
            . "            \$cursor,\n            " . ($member === null ? 'null' : var_export($member, true)) . ",\n            " . var_export("GET {$path}", true) . ",\n        );\n    }\n";
    }

    /**
     * The PHP arguments of an operation's parameters (required ones positional, the rest named and
     * null by default; `X-Channel` becomes `$channel`) and how each is put into the request.
     *
     * Shared parameters (`$ref` to `components.parameters`, e.g. `Idempotency-Key`) come last, after
     * the body, so adding one to an operation never shifts the position of an existing argument.
     *
     * @return array{required: list<string>, optional: list<string>, shared: list<string>,
     *     docs: list<string>, path: list<string>, query: list<string>, header: list<string>, vars: list<string>}
     */
    private function parameters(array $operation, string $owner): array
    {
        $out = ['required' => [], 'optional' => [], 'shared' => [], 'docs' => [], 'path' => [], 'query' => [],
            'header' => [], 'vars' => []];
        $taken = [];
        foreach ($operation['parameters'] ?? [] as $parameter) {
            $isShared = isset($parameter['$ref']);
            $parameter = $this->resolveParameter($parameter);
            $name = $parameter['name'];
            $var = $parameter['in'] === 'header' ? lcfirst(SchemaTypes::pascal(preg_replace('/^X-/i', '', $name))) : $name;
            if (isset($taken[$var])) {
                throw new \RuntimeException("{$operation['operationId']}: two parameters would both be named \${$var}");
            }
            $taken[$var] = true;
            $out['vars'][] = $var;
            $type = $this->types->typeOf($parameter['schema'], $owner, $name);
            $isRequired = ($parameter['required'] ?? false) === true;
            $q = $isRequired ? '' : '?';
            $value = match ($type['kind']) {
                'enum' => "\${$var}{$q}->value",
                'flag' => $isRequired ? "(\${$var} ? 'true' : 'false')" : "(\${$var} === null ? null : (\${$var} ? 'true' : 'false'))",
                'datetime' => "\${$var}{$q}->format('Y-m-d\\TH:i:s.vP')",
                'scalar' => $type['php'] === 'string' ? "\${$var}" : "(\${$var} === null ? null : (string) \${$var})",
                default => "\${$var}",
            };
            $hint = match ($type['kind']) {
                'datetime' => '\\DateTimeInterface',
                'enum', 'class' => "Model\\{$type['php']}",
                default => $type['php'],
            };
            $out[$parameter['in']][] = var_export($name, true) . " => {$value}";
            $out[$isShared ? 'shared' : ($isRequired ? 'required' : 'optional')][] =
                $isRequired ? "{$hint} \${$var}" : "?{$hint} \${$var} = null";
            if (isset($parameter['description'])) {
                $out['docs'][] = "@param {$hint}" . ($isRequired ? '' : '|null') . " \${$var} " . str_replace("\n", ' ', trim($parameter['description']));
            }
        }
        return $out;
    }

    /**
     * A parameter as written, or the `components.parameters` entry its `$ref` names.
     *
     * @param array<string, mixed> $parameter
     * @return array<string, mixed>
     */
    private function resolveParameter(array $parameter): array
    {
        if (!isset($parameter['$ref'])) {
            return $parameter;
        }
        $name = substr($parameter['$ref'], strlen('#/components/parameters/'));
        return $this->document['components']['parameters'][$name]
            ?? throw new \RuntimeException("unknown parameter {$parameter['$ref']}");
    }

    /**
     * The request body: the expression sent, the argument (a model or an array; none for an empty
     * schema, which is sent as `{}`), and whether the argument is required.
     *
     * @return array{0: string, 1: ?string, 2: bool}
     */
    private function body(array $operation, string $owner): array
    {
        $request = $operation['requestBody']['content']['application/json']['schema'] ?? null;
        if ($request === null) {
            return ['null', null, false];
        }
        $type = $this->types->typeOf($request, $owner, 'Request');
        $schema = $this->types->flatten(isset($request['$ref']) ? $this->types->component($request['$ref']) : $request);
        if (($schema['properties'] ?? []) === []) {
            return ['new \\stdClass()', null, false];
        }
        if (($operation['requestBody']['required'] ?? false) === true && ($schema['required'] ?? []) !== []) {
            return ['$body', "Model\\{$type['php']}|array \$body", true];
        }
        return ['$body ?? new \\stdClass()', "Model\\{$type['php']}|array|null \$body = null", false];
    }

    /**
     * The media type of a success answer that is neither JSON nor an event stream (a generated
     * product image): such an operation returns the body as a string. Null for every other operation.
     */
    private function textTypeOf(array $operation): ?string
    {
        foreach ($operation['responses'] as $status => $response) {
            if ((int) $status >= 200 && (int) $status < 300) {
                $types = array_keys($response['content'] ?? []);
                $type = $types[0] ?? null;
                return $type !== null && !str_contains($type, 'json') && $type !== 'text/event-stream' ? $type : null;
            }
        }
        return null;
    }

    /** @return array{0: string, 1: ?string} return type and the expression decoding `$data` */
    private function responseOf(array $operation, string $owner): array
    {
        $schema = null;
        $notModified = isset($operation['responses']['304']);
        foreach ($operation['responses'] as $status => $response) {
            if ((int) $status >= 200 && (int) $status < 300) {
                $schema = $response['content']['application/json']['schema'] ?? null;
                break;
            }
        }
        if ($schema === null) {
            return ['void', null];
        }
        $type = $this->types->typeOf($schema, $owner, 'Response');
        $q = $notModified ? '?' : '';
        return match ($type['kind']) {
            'class' => ["{$q}Model\\{$type['name']}", $notModified
                ? "\$data === null ? null : Model\\{$type['name']}::fromArray(\$data)"
                : "Model\\{$type['name']}::fromArray(\$data)"],
            default => ["{$q}array", '$data'],
        };
    }
}
