import { useDataProvider } from 'react-admin';
import { BooleanInput } from '../inputs/BooleanInput';
import { TextInput } from '../inputs/TextInput';
import type { ClientFieldsFragment as Client } from '../../../schema/generated/graphql';
import { errorText } from '../api';
import { useToast } from '../layout/Toast';
import { FormDialog } from '../list/FormDialog';
import { useReloadList } from '../list/useReloadList';
import { maxLength, required, type Validator } from '../validation';

const urlRules = [required('URL é obrigatória.'), maxLength(255, 'A URL deve ter no máximo 255 caracteres.')];
const storeIdRule: Validator = (value) =>
  value === undefined || value === null || /^\s*\d*\s*$/.test(String(value)) ? undefined : 'Informe apenas números.';

const blank = {
  url: '',
  hiper_token: '',
  nuvemshop_token: '',
  nuvemshop_store_id: '',
  hiper_sync_update_image: true,
  hiper_sync_update_dimensions: true,
};

/** Adds a client, or edits the one given. */
export function ClientDialog({ open, client, onClose }: { open: boolean; client?: Client; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const reload = useReloadList('clientes');

  const submit = async (values: Record<string, unknown>) => {
    const storeId = String(values.nuvemshop_store_id ?? '').trim();
    const data = {
      url: String(values.url ?? '').trim(),
      hiper_token: (values.hiper_token as string) || null,
      nuvemshop_token: (values.nuvemshop_token as string) || null,
      nuvemshop_store_id: storeId ? Number(storeId) : 0,
      hiper_sync_update_image: !!values.hiper_sync_update_image,
      hiper_sync_update_dimensions: !!values.hiper_sync_update_dimensions,
    };
    try {
      if (client) {
        await dataProvider.update('clientes', { id: client.id, data, previousData: client });
        toast('Sucesso', 'Cliente atualizado com sucesso.');
      } else {
        await dataProvider.create('clientes', { data });
        toast('Sucesso', 'Cliente criado com sucesso.');
      }
      onClose();
      await reload();
    } catch (error) {
      toast('Algo deu errado.', errorText(error), 'error');
    }
  };

  const record = client
    ? {
        ...client,
        hiper_token: client.hiper_token ?? '',
        nuvemshop_token: client.nuvemshop_token ?? '',
        nuvemshop_store_id: String(client.nuvemshop_store_id ?? 0),
      }
    : blank;

  return (
    <FormDialog
      open={open}
      title={client ? 'Editar cliente' : 'Adicionar Cliente'}
      record={record}
      onClose={onClose}
      onSubmit={submit}
      saveLabel="Salvar"
      cancelLabel="Cancelar"
    >
      <TextInput source="url" label="URL" validate={urlRules} autoFocus />
      <TextInput source="hiper_token" label="Token Hiper" />
      <TextInput source="nuvemshop_token" label="Token Nuvemshop" />
      <TextInput source="nuvemshop_store_id" label="ID da loja Nuvemshop" validate={storeIdRule} inputMode="numeric" />
      <BooleanInput source="hiper_sync_update_image" label="Sincronizar imagens" />
      <BooleanInput source="hiper_sync_update_dimensions" label="Sincronizar dimensões" />
    </FormDialog>
  );
}
