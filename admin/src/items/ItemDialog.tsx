import { useDataProvider } from 'react-admin';
import { TextInput } from '../inputs/TextInput';
import type { ItemFieldsFragment as Item } from '../../../schema/generated/graphql';
import { errorText } from '../api';
import { useToast } from '../layout/Toast';
import { FormDialog } from '../list/FormDialog';
import { useReloadList } from '../list/useReloadList';
import { maxLength, required } from '../validation';

const titleRules = [required('Title é obrigatório.'), maxLength(255, 'Title must be at most 255 characters')];
const descriptionRules = [maxLength(255, 'Description must be at most 255 characters')];

/** Adds an item, or edits the one given. */
export function ItemDialog({ open, item, onClose }: { open: boolean; item?: Item; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const reload = useReloadList('items');

  const submit = async (values: Record<string, unknown>) => {
    const data = { title: String(values.title ?? '').trim(), description: (values.description as string) || null };
    try {
      if (item) {
        await dataProvider.update('items', { id: item.id, data, previousData: item });
        toast('Success!', 'Item updated successfully.');
      } else {
        await dataProvider.create('items', { data });
        toast('Success!', 'Item created successfully.');
      }
      onClose();
      await reload();
    } catch (error) {
      toast('Something went wrong.', errorText(error), 'error');
    }
  };

  return (
    <FormDialog
      open={open}
      title={item ? 'Editar Item' : 'Adicionar Item'}
      record={item ?? { title: '', description: '' }}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextInput source="title" label="Title" validate={titleRules} autoFocus />
      <TextInput source="description" label="Description" validate={descriptionRules} />
    </FormDialog>
  );
}
