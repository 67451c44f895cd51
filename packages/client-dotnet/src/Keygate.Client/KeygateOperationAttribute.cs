namespace Keygate.Client;

/// <summary>
/// Names the OpenAPI operation a resource method calls, so a test can prove that every operation of the
/// document has a method.
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
internal sealed class KeygateOperationAttribute(string operationId) : Attribute
{
    /// <summary>The operationId in packages/openapi/openapi.json, e.g. <c>checkoutCart</c>.</summary>
    public string OperationId { get; } = operationId;
}
