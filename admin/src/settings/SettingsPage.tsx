import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useGetIdentity } from 'react-admin';
import { AlertsTab } from './AlertsTab';
import { AppearanceTab } from './AppearanceTab';
import { DangerZoneTab } from './DangerZoneTab';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';

/** /config: Configurações do usuário. */
export default function SettingsPage() {
  const { identity } = useGetIdentity();
  const [tab, setTab] = useState(0);
  const tabs = [
    { label: 'Meu perfil', content: <ProfileTab /> },
    { label: 'Senha', content: <PasswordTab /> },
    { label: 'Aparência', content: <AppearanceTab /> },
    { label: 'Alertas', content: <AlertsTab /> },
    ...(identity && !identity.is_superuser ? [{ label: 'Danger zone', content: <DangerZoneTab /> }] : []),
  ];
  const current = Math.min(tab, tabs.length - 1);
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title="Configurações do usuário" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Configurações do usuário
      </Typography>
      <Tabs
        value={current}
        onChange={(_, value: number) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        // The layout grows to its content's widest line; the tabs scroll within the width they are given instead.
        sx={{ contain: 'inline-size' }}
      >
        {tabs.map((t, index) => (
          <Tab key={t.label} label={t.label} id={`settings-tab-${index}`} aria-controls={`settings-panel-${index}`} />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`settings-panel-${current}`}
        aria-labelledby={`settings-tab-${current}`}
        sx={{ pt: 3, maxWidth: 480 }}
      >
        {tabs[current].content}
      </Box>
    </Box>
  );
}
