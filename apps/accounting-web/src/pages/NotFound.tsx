import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useI18n } from '../i18n/index.js';

export default function NotFound() {
  const { t } = useI18n();
  return (
    <Stack>
      <Text>{t('app.notFound')}</Text>
      <Anchor component={Link} to="/">
        {t('nav.dashboard')}
      </Anchor>
    </Stack>
  );
}
