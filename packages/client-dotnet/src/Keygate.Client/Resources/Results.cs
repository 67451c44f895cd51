namespace Keygate.Client.Resources;

internal static class Results
{
    /// <summary>The body of a 2xx answer that the document says has one.</summary>
    public static T Required<T>(T? value, string operation)
        where T : class =>
        value ?? throw new InvalidOperationException($"keygate client: {operation} answered without a body");
}
