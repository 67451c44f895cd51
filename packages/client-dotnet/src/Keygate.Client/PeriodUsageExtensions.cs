using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions.Serialization;

namespace Keygate.Client;

/// <summary>The calls and spent cost of one outcome of a period (<c>VALID</c>, <c>QUOTA_EXCEEDED</c>, …).</summary>
/// <param name="Calls">How many calls had the outcome.</param>
/// <param name="Cost">What they spent (refused calls spend nothing).</param>
public sealed record OutcomeUsage(long Calls, long Cost);

/// <summary>
/// Reads <see cref="PeriodUsage.Outcomes"/>, which the document keys by outcome name and Kiota therefore keeps as
/// untyped additional data.
/// </summary>
public static class PeriodUsageExtensions
{
    /// <summary>Every outcome of the period with its calls and cost.</summary>
    public static IReadOnlyDictionary<string, OutcomeUsage> OutcomesByName(this PeriodUsage usage)
    {
        ArgumentNullException.ThrowIfNull(usage);
        var result = new Dictionary<string, OutcomeUsage>(StringComparer.Ordinal);
        foreach (var (name, value) in usage.Outcomes?.AdditionalData ?? new Dictionary<string, object>())
            if (value is UntypedObject entry)
            {
                var members = entry.GetValue();
                result[name] = new OutcomeUsage(Number(members, "calls"), Number(members, "cost"));
            }
        return result;
    }

    /// <summary>The calls and cost of <paramref name="outcome"/>; zero for an outcome the period did not see.</summary>
    public static OutcomeUsage Outcome(this PeriodUsage usage, string outcome) =>
        usage.OutcomesByName().TryGetValue(outcome, out var found) ? found : new OutcomeUsage(0, 0);

    private static long Number(IDictionary<string, UntypedNode> members, string name) =>
        members.TryGetValue(name, out var node) ? node switch
        {
            UntypedInteger i => i.GetValue(),
            UntypedLong l => l.GetValue(),
            UntypedDouble d => (long)d.GetValue(),
            UntypedDecimal m => (long)m.GetValue(),
            UntypedFloat f => (long)f.GetValue(),
            _ => 0,
        } : 0;
}
