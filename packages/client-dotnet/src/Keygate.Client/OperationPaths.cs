namespace Keygate.Client;

/// <summary>Maps a concrete request path back to the documented path template, for notices.</summary>
internal static class OperationPaths
{
    private static readonly (string Template, System.Text.RegularExpressions.Regex Pattern, int Literals)[] Compiled =
        OpenApiPaths.All
            .Select(template => (
                template,
                new System.Text.RegularExpressions.Regex(
                    "^" + System.Text.RegularExpressions.Regex.Replace(
                        System.Text.RegularExpressions.Regex.Escape(template).Replace(@"\{", "{", StringComparison.Ordinal),
                        "{[^}/]+}",
                        "[^/]+") + "$",
                    System.Text.RegularExpressions.RegexOptions.CultureInvariant),
                System.Text.RegularExpressions.Regex.Replace(template, "{[^}]+}", "").Length))
            .ToArray();

    /// <summary>
    /// The documented template of <paramref name="path"/> (<c>/v2/carts/c_1:checkout</c> gives
    /// <c>/v2/carts/{id}:checkout</c>); the template with the most literal text wins, so an action path is never taken
    /// for its resource. An undocumented path is returned as it is.
    /// </summary>
    public static string TemplateOf(string path) =>
        Compiled.Where(entry => entry.Pattern.IsMatch(path)).OrderByDescending(entry => entry.Literals).Select(entry => entry.Template).FirstOrDefault()
        ?? path;
}
