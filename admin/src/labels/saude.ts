import { healthNames } from '../../../schema/staff-notes';
import { LINK_LABELS } from '../health/reasonLinks';

/** The saude screen's texts (`resources.saude` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Saúde',
  language: 'pt',
  name: 'Saúde de cliente |||| Saúde dos clientes',
  fields: {
    client_id: 'Cliente',
    client_name: 'Cliente',
    health: 'Saúde',
    reasons: 'Motivos',
    health_since: 'Desde',
    checked_at: 'Verificada em',
  },
  values: { health: healthNames },
  hints: {
    health: {
      ok: 'Nada a fazer',
      attention: 'Uma pessoa deve olhar: veja os motivos',
      critical: 'Precisa de uma pessoa agora: veja os motivos',
    },
  },
  no_reasons: 'Nada a fazer',
  /** Where each reason's link leads. */
  links: LINK_LABELS,
  title: 'Saúde dos clientes',
  table: 'Saúde dos clientes, do pior para o melhor',
  empty: 'Nenhum cliente ainda.',
  type: 'saúde de cliente |||| saúdes de clientes',
  action: { show: 'Ver saúde' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
