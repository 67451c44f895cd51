namespace Keygate.Client;

/// <summary>One member of a structured-field list (RFC 9651): its value and its <c>;key=value</c> parameters.</summary>
internal sealed record FieldItem(string Value, IReadOnlyDictionary<string, string> Parameters)
{
    /// <summary>A parameter as a non-negative integer, or null when absent or not one.</summary>
    public long? IntegerParameter(string name) =>
        Parameters.TryGetValue(name, out var raw) && raw.Length > 0 && raw.All(char.IsAsciiDigit) && long.TryParse(raw, out var value)
            ? value
            : null;
}

/// <summary>A lenient reader of structured-field lists such as <c>"per-key";q=100;w=60</c>.</summary>
internal static class StructuredFields
{
    /// <summary>
    /// Parses a list leniently: empty members are skipped, a parameter without <c>=</c> gets the value <c>?1</c> (true).
    /// </summary>
    public static IReadOnlyList<FieldItem> ParseList(string? header)
    {
        var items = new List<FieldItem>();
        if (string.IsNullOrEmpty(header)) return items;
        foreach (var member in SplitOutsideQuotes(header, ','))
        {
            var parts = SplitOutsideQuotes(member, ';');
            var value = BareItem(parts[0]);
            if (value.Length == 0) continue;
            var parameters = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var parameter in parts.Skip(1))
            {
                var equals = parameter.IndexOf('=');
                var name = (equals < 0 ? parameter : parameter[..equals]).Trim().ToLowerInvariant();
                if (name.Length == 0) continue;
                parameters[name] = equals < 0 ? "?1" : BareItem(parameter[(equals + 1)..]);
            }
            items.Add(new FieldItem(value, parameters));
        }
        return items;
    }

    /// <summary>Splits on <paramref name="separator"/> outside double-quoted strings (which may hold <c>\"</c>).</summary>
    private static List<string> SplitOutsideQuotes(string text, char separator)
    {
        var parts = new List<string>();
        var current = new System.Text.StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted && c == '\\' && i + 1 < text.Length)
            {
                current.Append(c).Append(text[++i]);
                continue;
            }
            if (c == '"') quoted = !quoted;
            if (c == separator && !quoted)
            {
                parts.Add(current.ToString());
                current.Clear();
            }
            else
            {
                current.Append(c);
            }
        }
        parts.Add(current.ToString());
        return parts;
    }

    /// <summary>A quoted string unquoted and unescaped; a token kept as is.</summary>
    private static string BareItem(string raw)
    {
        var text = raw.Trim();
        if (text.Length >= 2 && text[0] == '"' && text[^1] == '"')
        {
            var inner = text[1..^1];
            var unescaped = new System.Text.StringBuilder(inner.Length);
            for (var i = 0; i < inner.Length; i++)
            {
                if (inner[i] == '\\' && i + 1 < inner.Length) i++;
                unescaped.Append(inner[i]);
            }
            return unescaped.ToString();
        }
        return text;
    }
}
