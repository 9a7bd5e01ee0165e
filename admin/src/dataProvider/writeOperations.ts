import { operationNames, type OperationDescription, type TypeName } from '../crud/description';
import { mutationOf } from '../crud/mutations';
import { argumentList, parens, selection, variableList } from './operations';

/** A resource's writing operations; a read-only one (a history) has none. */
export interface WriteTexts {
  create?: string;
  update?: string;
  delete?: string;
  createArgs: OperationDescription['args'];
  updateArgs: OperationDescription['args'];
}

const cache = new Map<TypeName, WriteTexts>();

/** The type's create, update and delete, each answering the record, from the mutations' description. */
export function writeOperationsOf(type: TypeName): WriteTexts {
  const cached = cache.get(type);
  if (cached) return cached;
  const names = operationNames(type);
  const fields = selection(type);
  const mutation = (name: string) => {
    const operation = mutationOf(name);
    return operation
      ? `mutation ${name}${parens(variableList(operation.args))} { data: ${name}${parens(argumentList(operation.args))} { ${fields} } }`
      : undefined;
  };
  const texts: WriteTexts = {
    create: mutation(names.create),
    update: mutation(names.update),
    delete: mutation(names.delete),
    createArgs: mutationOf(names.create)?.args ?? {},
    updateArgs: mutationOf(names.update)?.args ?? {},
  };
  cache.set(type, texts);
  return texts;
}
