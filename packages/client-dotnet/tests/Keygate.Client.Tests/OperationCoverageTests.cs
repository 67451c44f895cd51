using System.Reflection;

namespace Keygate.Client.Tests;

public class OperationCoverageTests
{
    private static readonly Type[] Resources = typeof(KeygateClient).GetProperties()
        .Select(p => p.PropertyType)
        .Where(t => t.Namespace == "Keygate.Client.Resources")
        .ToArray();

    private static IEnumerable<string> Covered() =>
        Resources.SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            .SelectMany(m => m.GetCustomAttributes<KeygateOperationAttribute>())
            .Select(a => a.OperationId);

    [Fact]
    public void EveryOperationOfTheDocumentHasAMethodOnAResource()
    {
        var missing = OpenApiOperations.All.Except(Covered()).Order().ToList();

        Assert.True(missing.Count == 0, $"operations without a method on a KeygateClient resource: {string.Join(", ", missing)}");
    }

    [Fact]
    public void NoMethodNamesAnOperationTheDocumentLacks()
    {
        var unknown = Covered().Except(OpenApiOperations.All).ToList();

        Assert.Empty(unknown);
        Assert.True(Resources.Length >= 9, $"found only {Resources.Length} resources");
    }
}
