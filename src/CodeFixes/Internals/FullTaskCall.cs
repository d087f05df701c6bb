using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A StartNew or ContinueWith call moved to its longest sibling, the one that takes the delegate (and state) followed by
/// a CancellationToken, the options and a TaskScheduler: the arguments the call passes stay as written, and each tail
/// parameter it did not pass gets the value the shorter overload used (<c>CancellationToken.None</c>, the options'
/// <c>None</c>) or the value the fix chooses. TPL0019 chooses the scheduler; TPL0011 the options of a call that passes a
/// token or scheduler without them. Both fixes write the same argument list, so they compose in either order.
/// </summary>
internal static class FullTaskCall
{
    /// <summary>
    /// The sibling of <paramref name="method"/> with the three tail parameters; null where the type has none. The
    /// leading parameters must match the call's exactly, type arguments included.
    /// </summary>
    public static IMethodSymbol? SiblingOf(IMethodSymbol method, Compilation compilation)
    {
        if (compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken) is not { } token
            || compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler) is not { } scheduler)
        {
            return null;
        }

        var leading = method.Parameters.TakeWhile(p => !IsTail(p.Type, token, scheduler)).ToList();
        foreach (var candidate in method.ContainingType.GetMembers(method.Name).OfType<IMethodSymbol>())
        {
            if (candidate.Parameters.Length != leading.Count + 3 || candidate.TypeParameters.Length != method.TypeArguments.Length)
            {
                continue;
            }

            var constructed = candidate.IsGenericMethod ? candidate.Construct(method.TypeArguments.ToArray()) : candidate;
            var parameters = constructed.Parameters;
            if (leading.Select((p, i) => SymbolEqualityComparer.Default.Equals(p.Type, parameters[i].Type)).All(same => same)
                && SymbolEqualityComparer.Default.Equals(parameters[leading.Count].Type, token)
                && parameters[leading.Count + 1].Type.TypeKind == TypeKind.Enum
                && SymbolEqualityComparer.Default.Equals(parameters[leading.Count + 2].Type, scheduler))
            {
                return constructed;
            }
        }

        return null;
    }

    /// <summary>Whether <paramref name="method"/> passes a token or a scheduler, the tail parameters other than options.</summary>
    public static bool TakesTokenOrScheduler(IMethodSymbol method, Compilation compilation) =>
        compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken) is { } token
        && compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler) is { } scheduler
        && method.Parameters.Any(p => p.Type.TypeKind != TypeKind.Enum && IsTail(p.Type, token, scheduler));

    /// <summary>
    /// Rewrites <paramref name="call"/> to pass every parameter of <paramref name="full"/>: <paramref name="chosen"/>
    /// gives the value of a tail parameter the call did not pass (null: the shorter overload's default). Named
    /// arguments stay named, and the new ones are named too.
    /// </summary>
    public static void Rewrite(
        DocumentEditor editor,
        InvocationExpressionSyntax call,
        ImmutableArray<IArgumentOperation> arguments,
        IMethodSymbol full,
        Func<IParameterSymbol, SyntaxNode?> chosen)
    {
        // Positions in the written list rather than nodes: a call inside a lambda argument may be rewritten by the same
        // pass, so the list is rebuilt from its current nodes when the editor applies the change.
        var written = call.ArgumentList.Arguments;
        var positions = arguments
            .Where(a => !a.IsImplicit && a.Syntax is ArgumentSyntax && a.Parameter is not null)
            .ToDictionary(a => a.Parameter!.Name, a => written.IndexOf((ArgumentSyntax)a.Syntax), StringComparer.Ordinal);
        var named = written.Any(a => a.NameColon is not null);
        var plan = new List<(int Position, ArgumentSyntax? Added)>();
        foreach (var parameter in full.Parameters)
        {
            if (positions.TryGetValue(parameter.Name, out var position) && position >= 0)
            {
                plan.Add((position, null));
                continue;
            }

            var added = SyntaxFactory.Argument((ExpressionSyntax)(chosen(parameter) ?? DefaultOf(editor.Generator, parameter.Type)));
            plan.Add((-1, named ? added.WithNameColon(SyntaxFactory.NameColon(parameter.Name)) : added));
        }

        // Named arguments keep the order they were written in; the new ones go after them.
        if (named)
        {
            plan = Enumerable.Range(0, written.Count).Select(i => (i, (ArgumentSyntax?)null)).Concat(plan.Where(p => p.Added is not null)).ToList();
        }

        editor.ReplaceNode(call.ArgumentList, (current, _) =>
        {
            var list = (ArgumentListSyntax)current;
            var rebuilt = plan.Select(p => p.Added ?? list.Arguments[p.Position]);
            return list.WithArguments(SyntaxFactory.SeparatedList(rebuilt)).WithAdditionalAnnotations(Formatter.Annotation);
        });
    }

    /// <summary>What the shorter overload passed for a tail parameter: no token (<c>CancellationToken.None</c>), no options.</summary>
    private static SyntaxNode DefaultOf(SyntaxGenerator generator, ITypeSymbol type) =>
        generator.MemberAccessExpression(ImportedType.Of(generator, type), "None");

    private static bool IsTail(ITypeSymbol type, INamedTypeSymbol token, INamedTypeSymbol scheduler) =>
        type.TypeKind == TypeKind.Enum
        || SymbolEqualityComparer.Default.Equals(type, token)
        || SymbolEqualityComparer.Default.Equals(type, scheduler);
}
