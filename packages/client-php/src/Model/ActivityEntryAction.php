<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum ActivityEntryAction: string
{
    case KeyCreated = 'key.created';
    case KeyScopesChanged = 'key.scopes_changed';
    case KeyRotated = 'key.rotated';
    case KeySecretClosed = 'key.secret_closed';
    case KeyRevoked = 'key.revoked';
    case KeyExpiryReminder = 'key.expiry_reminder';
    case KeyBudgetChanged = 'key.budget_changed';
    case SandboxReset = 'sandbox.reset';
}
