/** Turns ajv errors into located corpus problems; it loads no ajv, which a compiled build's threads never need. */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { toJsonPath } from './json-path.ts';

/** A validation failure at a JSON path within one value. */
export interface SchemaFailure {
  instancePath: string;
  path: string;
  message: string;
}

/**
 * Validates a value and describes every failure, or returns an empty array. The errors of an anyOf's
 * branches fold into one message ("must be X or must be null"); an `if` error only repeats its `then`.
 */
export function describeFailures(validate: ValidateFunction, value: unknown): SchemaFailure[] {
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).filter((error) => error.keyword !== 'if');
  const unions = errors.filter((error) => error.keyword === 'anyOf');
  const inBranch = (error: ErrorObject) =>
    unions.some((union) => error !== union && error.schemaPath.startsWith(`${union.schemaPath}/`));
  return errors
    .filter((error) => !inBranch(error))
    .map((error) => {
      if (error.keyword !== 'anyOf') return describeError(error);
      const branches = errors.filter((other) => other.schemaPath.startsWith(`${error.schemaPath}/`));
      const message = [...new Set(branches.map((branch) => describeError(branch).message))].join(' or ');
      return { instancePath: error.instancePath, path: toJsonPath(error.instancePath), message };
    });
}

function describeError(error: ErrorObject): SchemaFailure {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const instancePath = `${error.instancePath}/${String(params.missingProperty)}`;
      return { instancePath, path: toJsonPath(instancePath), message: 'is required' };
    }
    case 'additionalProperties': {
      const instancePath = `${error.instancePath}/${String(params.additionalProperty)}`;
      return { instancePath, path: toJsonPath(instancePath), message: 'is not a known field' };
    }
    case 'false schema':
      return { instancePath: error.instancePath, path: toJsonPath(error.instancePath), message: 'must not be present' };
    case 'type': {
      // ajv writes a union as "string,null"; a maintainer reads "string or null".
      const types = Array.isArray(params.type) ? params.type.map(String) : String(params.type).split(',');
      return { instancePath: error.instancePath, path: toJsonPath(error.instancePath), message: `must be ${types.join(' or ')}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((value) => String(value)).join(', ');
      return { instancePath: error.instancePath, path: toJsonPath(error.instancePath), message: `must be one of ${allowed}` };
    }
    default:
      return {
        instancePath: error.instancePath,
        path: toJsonPath(error.instancePath),
        message: error.message ?? `fails ${error.keyword}`,
      };
  }
}
